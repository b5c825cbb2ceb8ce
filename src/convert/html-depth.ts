/**
 * A bound on how deep the HTML handed to turndown nests. turndown walks the
 * tree by recursion and spends time per level on every node below: 5,000
 * nested <div>s took 1.5 s, 10,000 overflowed the stack after 5 s, and a file
 * of 200,000 ran into the 120 s conversion limit on every sync. Markdown has
 * nothing to say about structure that deep, so below MAX_DEPTH an element's
 * whole subtree becomes its text, words kept apart; real pages nest a few
 * dozen levels at most.
 */

/** Levels below <body> kept as elements; deeper content is kept as text. */
export const MAX_DEPTH = 128;

const ELEMENT = 1;
const TEXT = 3;

/** The slice of linkedom's DOM this file touches (the project compiles without the DOM lib). */
export interface DepthNode {
  nodeType: number;
  textContent: string | null;
  childNodes: ArrayLike<DepthNode>;
}

/** Replaces the content of every element at MAX_DEPTH below root with its text; returns how many were cut. Iterative: no recursion over the depth it bounds. */
export function capNesting(root: DepthNode, maxDepth = MAX_DEPTH): number {
  let cut = 0;
  const stack: [DepthNode, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth === maxDepth) {
      if (Array.from(node.childNodes).some((c) => c.nodeType === ELEMENT)) {
        node.textContent = subtreeText(node);
        cut++;
      }
      continue;
    }
    for (const child of Array.from(node.childNodes)) if (child.nodeType === ELEMENT) stack.push([child, depth + 1]);
  }
  return cut;
}

/** The text under node, a space between the texts of different elements so that words never run together. */
function subtreeText(node: DepthNode): string {
  const parts: string[] = [];
  const stack: DepthNode[] = [node];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (next.nodeType === TEXT) {
      parts.push(next.textContent ?? "");
      continue;
    }
    if (next.nodeType !== ELEMENT) continue;
    const children = Array.from(next.childNodes);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return parts.join(" ");
}
