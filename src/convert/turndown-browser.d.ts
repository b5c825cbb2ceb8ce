/** turndown's browser build (html.ts imports it to leave domino out): the same API as the package's typed entry. */
declare module "turndown/lib/turndown.browser.es.js" {
  import TurndownService from "turndown";
  export default TurndownService;
}
