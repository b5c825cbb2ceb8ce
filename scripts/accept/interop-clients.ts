#!/usr/bin/env bun
/**
 * Clients we did not write, for scripts/accept/interop-clients.test.ts: the
 * Python MCP SDK from PyPI (in a venv) and the MCP Inspector CLI from npm,
 * pinned and installed under .ci/interop/ on first use. .ci/run installs
 * them before the acceptance run (`bun scripts/accept/interop-clients.ts`),
 * so a machine without python3, venv, pip or the registries fails there, by
 * name, rather than in the middle of a test.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../../test/helpers.ts";
import { runChecked } from "./checked-run.ts";

export const PYTHON_MCP_VERSION = "2.3.0";
export const INSPECTOR_VERSION = "2.12.0";

const DIR = join(REPO_ROOT, ".ci", "interop");
const VENV = join(DIR, "venv");
const NPM_PREFIX = join(DIR, "npm");

/** The venv's python, with mcp==PYTHON_MCP_VERSION installed from PyPI if it is not there yet. */
export function pythonWithMcp(): string {
  const python = join(VENV, "bin", "python");
  const version = () => (existsSync(python) ? Bun.spawnSync([python, "-c", "import importlib.metadata as m; print(m.version('mcp'))"]).stdout.toString().trim() : "");
  if (version() === PYTHON_MCP_VERSION) return python;
  const why = `Installing the Python MCP SDK (mcp==${PYTHON_MCP_VERSION}) from PyPI into ${VENV} failed; the interop acceptance tests need python3 with venv and pip, and PyPI`;
  rmSync(VENV, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  runChecked(["python3", "-m", "venv", VENV], why);
  runChecked([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", `mcp==${PYTHON_MCP_VERSION}`], why);
  if (version() !== PYTHON_MCP_VERSION) throw new Error(`${why}: after the install, mcp reports version "${version()}".`);
  return python;
}

/** The MCP Inspector CLI's command, with @modelcontextprotocol/inspector@INSPECTOR_VERSION installed from npm if it is not there yet. */
export function inspectorCli(): string[] {
  const bin = join(NPM_PREFIX, "node_modules", ".bin", "mcp-inspector");
  const manifest = join(NPM_PREFIX, "node_modules", "@modelcontextprotocol", "inspector", "package.json");
  const version = () => (existsSync(manifest) ? (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version : "");
  if (version() !== INSPECTOR_VERSION || !existsSync(bin)) {
    const why = `Installing the MCP Inspector (@modelcontextprotocol/inspector@${INSPECTOR_VERSION}) from npm into ${NPM_PREFIX} failed; the interop acceptance tests need npm and its registry`;
    mkdirSync(NPM_PREFIX, { recursive: true });
    runChecked(["npm", "install", "--prefix", NPM_PREFIX, "--no-audit", "--no-fund", "--loglevel=error", `@modelcontextprotocol/inspector@${INSPECTOR_VERSION}`], why);
    if (version() !== INSPECTOR_VERSION) throw new Error(`${why}: after the install, the package reports version "${version()}".`);
  }
  return [bin, "--cli"];
}

if (import.meta.main) {
  try {
    console.log(`Python MCP SDK ${PYTHON_MCP_VERSION}: ${pythonWithMcp()}`);
    console.log(`MCP Inspector ${INSPECTOR_VERSION}: ${inspectorCli().join(" ")}`);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
