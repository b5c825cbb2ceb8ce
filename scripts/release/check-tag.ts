#!/usr/bin/env bun
/**
 * bun scripts/release/check-tag.ts [tag]: fails unless the tag (default
 * $GITHUB_REF_NAME) is v<package.json version>, and, inside GitHub Actions,
 * unless the workflow runs in the repository install.sh and the formula
 * download from.
 */
import pkg from "../../package.json" with { type: "json" };
import { REPOSITORY } from "./repository.ts";

/** The reasons a release from this tag and repository would be wrong; empty when it is right. */
export function tagProblems(tag: string | undefined, version: string, repository?: string): string[] {
  const problems: string[] = [];
  if (tag !== `v${version}`) problems.push(`tag ${tag ?? "(none)"} does not match package.json's version ${version}: tag v${version}, or bump the version first`);
  if (repository && repository !== REPOSITORY) {
    problems.push(`this runs in ${repository} but install.sh and the formula download from ${REPOSITORY}: change REPOSITORY in src/version.ts and REPO in install.sh`);
  }
  return problems;
}

if (import.meta.main) {
  const problems = tagProblems(process.argv[2] ?? process.env.GITHUB_REF_NAME, pkg.version, process.env.GITHUB_REPOSITORY);
  for (const p of problems) console.error(`release check: ${p}`);
  if (problems.length) process.exit(1);
  console.log(`release check: v${pkg.version} ok`);
}
