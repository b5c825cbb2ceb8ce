/**
 * A command prefix that runs its command in a new network namespace, where
 * there is no interface but a loopback that is down: nothing can connect
 * anywhere. As root, `unshare -n`; otherwise a user namespace maps us to root
 * for it (`unshare -rn`), which Ubuntu 24.04 allows only after
 * `sysctl kernel.apparmor_restrict_unprivileged_userns=0` (release.yml does that).
 */
export function networkless(): string[] {
  if (process.getuid?.() === 0 && Bun.spawnSync(["unshare", "-n", "true"]).exitCode === 0) return ["unshare", "-n", "--"];
  if (Bun.spawnSync(["unshare", "-rn", "true"]).exitCode === 0) return ["unshare", "-rn", "--"];
  throw new Error(
    "Cannot create a network namespace to prove the offline install: run as root, or allow unprivileged user namespaces " +
      "(sysctl kernel.apparmor_restrict_unprivileged_userns=0 on Ubuntu).",
  );
}
