/**
 * Office Math (OMML, ECMA-376 part 1 section 22.1) -> LaTeX, for the
 * equations mammoth would otherwise drop. Covers the structures Word's
 * equation editor writes: fractions, scripts, radicals, delimiters, n-ary
 * operators, functions, accents, bars, limits, matrices and equation arrays.
 * Unknown elements fall back to their text, so nothing is lost silently.
 */
import { attr, childNamed, childrenNamed, localName, type XmlElement } from "./zip-xml.ts";

const SYMBOLS: Record<string, string> = {
  α: "\\alpha", β: "\\beta", γ: "\\gamma", δ: "\\delta", ε: "\\epsilon", ζ: "\\zeta", η: "\\eta", θ: "\\theta",
  ι: "\\iota", κ: "\\kappa", λ: "\\lambda", μ: "\\mu", ν: "\\nu", ξ: "\\xi", π: "\\pi", ρ: "\\rho", σ: "\\sigma",
  τ: "\\tau", υ: "\\upsilon", φ: "\\phi", χ: "\\chi", ψ: "\\psi", ω: "\\omega", Γ: "\\Gamma", Δ: "\\Delta",
  Θ: "\\Theta", Λ: "\\Lambda", Ξ: "\\Xi", Π: "\\Pi", Σ: "\\Sigma", Φ: "\\Phi", Ψ: "\\Psi", Ω: "\\Omega",
  "∞": "\\infty", "≤": "\\leq", "≥": "\\geq", "≠": "\\neq", "≈": "\\approx", "±": "\\pm", "∓": "\\mp",
  "×": "\\times", "÷": "\\div", "·": "\\cdot", "⋅": "\\cdot", "→": "\\rightarrow", "←": "\\leftarrow",
  "⇒": "\\Rightarrow", "⇔": "\\Leftrightarrow", "∈": "\\in", "∉": "\\notin", "⊂": "\\subset", "⊆": "\\subseteq",
  "∪": "\\cup", "∩": "\\cap", "∂": "\\partial", "∇": "\\nabla", "∀": "\\forall", "∃": "\\exists", "∅": "\\emptyset",
  "−": "-", "∗": "*", "′": "'", "…": "\\ldots", "⋯": "\\cdots", "∝": "\\propto", "≡": "\\equiv", "∼": "\\sim",
  "⁡": "", // the invisible function application after "sin"
};
const NARY: Record<string, string> = { "∑": "\\sum", "∏": "\\prod", "∐": "\\coprod", "∫": "\\int", "∬": "\\iint", "∭": "\\iiint", "∮": "\\oint", "⋃": "\\bigcup", "⋂": "\\bigcap" };
const ACCENTS: Record<string, string> = { "̂": "\\hat", "̃": "\\tilde", "̄": "\\bar", "̇": "\\dot", "̈": "\\ddot", "⃗": "\\vec", "̌": "\\check", "́": "\\acute", "̀": "\\grave", "̆": "\\breve" };
const FUNCTIONS = new Set(["sin", "cos", "tan", "cot", "sec", "csc", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "log", "ln", "lg", "exp", "lim", "max", "min", "sup", "inf", "det", "deg", "arg", "gcd"]);

/** A property value such as <m:chr m:val="∑"/> inside a *Pr element; undefined when absent. */
function prop(el: XmlElement, pr: string, name: string): string | undefined {
  const p = childNamed(el, pr);
  const v = p ? childNamed(p, name) : undefined;
  return v ? (attr(v, "val") ?? "") : undefined;
}

/** Run text with symbols as LaTeX commands; "sin" followed by U+2061 (function application) becomes \\sin. */
function text(s: string): string {
  const named = s.replace(/([A-Za-z]+)\u2061/g, (_m, name: string) => (FUNCTIONS.has(name) ? `\\${name} ` : name));
  return [...named].map((c) => (SYMBOLS[c] !== undefined ? `${SYMBOLS[c]}${/^\\[a-z]+$/i.test(SYMBOLS[c]!) ? " " : ""}` : c)).join("");
}

/** The LaTeX of every child in order (skipping property elements). */
function seq(el: XmlElement | undefined): string {
  if (!el) return "";
  return Array.from(el.children).map(node).join("");
}

const part = (el: XmlElement, name: string) => seq(childNamed(el, name));
const group = (s: string) => (s.length === 1 ? s : `{${s}}`);

function delimiter(el: XmlElement): string {
  const open = prop(el, "dPr", "begChr") ?? "(";
  const close = prop(el, "dPr", "endChr") ?? ")";
  const sep = prop(el, "dPr", "sepChr") ?? "|";
  const side = (c: string) => (c === "" ? "." : c === "{" || c === "}" ? `\\${c}` : c === "|" ? "|" : text(c));
  const inner = childrenNamed(el, "e").map(seq).join(sep === "|" ? " | " : text(sep));
  return `\\left${side(open)}${inner}\\right${side(close)}`;
}

function nary(el: XmlElement): string {
  const chr = prop(el, "naryPr", "chr") ?? "∫";
  const op = NARY[chr] ?? text(chr);
  const sub = part(el, "sub");
  const sup = part(el, "sup");
  return `${op}${sub ? `_${group(sub)}` : ""}${sup ? `^${group(sup)}` : ""} ${group(part(el, "e"))}`;
}

function func(el: XmlElement): string {
  const name = part(el, "fName").trim();
  const known = FUNCTIONS.has(name) ? `\\${name}` : name.replace(/^([a-z]+)(?=_)/, (n) => (FUNCTIONS.has(n) ? `\\${n}` : n));
  return `${known} ${group(part(el, "e"))}`;
}

function rows(el: XmlElement, row: string, cell: string): string {
  return childrenNamed(el, row)
    .map((r) => childrenNamed(r, cell).map(seq).join(" & "))
    .join(" \\\\ ");
}

/** The LaTeX of one OMML element. */
function node(el: XmlElement): string {
  const name = localName(el);
  if (name.endsWith("Pr")) return "";
  switch (name) {
    case "r":
      return Array.from(el.children).filter((c) => localName(c) === "t").map((t) => text(t.textContent ?? "")).join("");
    case "f":
      return prop(el, "fPr", "type") === "lin" ? `${part(el, "num")}/${part(el, "den")}` : `\\frac{${part(el, "num")}}{${part(el, "den")}}`;
    case "sSup":
      return `${group(part(el, "e"))}^${group(part(el, "sup"))}`;
    case "sSub":
      return `${group(part(el, "e"))}_${group(part(el, "sub"))}`;
    case "sSubSup":
      return `${group(part(el, "e"))}_${group(part(el, "sub"))}^${group(part(el, "sup"))}`;
    case "sPre":
      return `{}_${group(part(el, "sub"))}^${group(part(el, "sup"))}${group(part(el, "e"))}`;
    case "rad": {
      const degree = part(el, "deg");
      return degree ? `\\sqrt[${degree}]{${part(el, "e")}}` : `\\sqrt{${part(el, "e")}}`;
    }
    case "d":
      return delimiter(el);
    case "nary":
      return nary(el);
    case "func":
      return func(el);
    case "acc":
      return `${ACCENTS[prop(el, "accPr", "chr") ?? "̂"] ?? "\\hat"}{${part(el, "e")}}`;
    case "bar":
      return prop(el, "barPr", "pos") === "top" ? `\\overline{${part(el, "e")}}` : `\\underline{${part(el, "e")}}`;
    case "limLow":
      return `${group(part(el, "e"))}_${group(part(el, "lim"))}`;
    case "limUpp":
      return `${group(part(el, "e"))}^${group(part(el, "lim"))}`;
    case "groupChr":
      return prop(el, "groupChrPr", "pos") === "top" ? `\\overbrace{${part(el, "e")}}` : `\\underbrace{${part(el, "e")}}`;
    case "eqArr":
      return `\\begin{array}{l} ${childrenNamed(el, "e").map(seq).join(" \\\\ ")} \\end{array}`;
    case "m":
      return `\\begin{matrix} ${rows(el, "mr", "e")} \\end{matrix}`;
    case "t":
      return text(el.textContent ?? "");
    default:
      // e, num, den, box, borderBox, phant, oMath, w:r and whatever else: their content in order.
      return el.children.length ? seq(el) : text(el.textContent ?? "");
  }
}

/** LaTeX of an m:oMath or m:oMathPara element (without $ delimiters). */
export function ommlToLatex(el: XmlElement): string {
  if (localName(el) === "oMathPara") return childrenNamed(el, "oMath").map(ommlToLatex).join(" \\\\ ");
  // A space ends a command name only where a letter follows: "\sin x", but "\lambda}" and "\alpha\leq".
  return seq(el).replace(/\s+/g, " ").replace(/(\\[A-Za-z]+) (?=[^A-Za-z]|$)/g, "$1").trim();
}
