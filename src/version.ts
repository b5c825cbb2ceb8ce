import pkg from "../package.json" with { type: "json" };

/** The product version, taken from package.json at build time. */
export const VERSION: string = pkg.version;
