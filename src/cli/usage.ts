import { parseKubernetesVersion } from '../core/check';
import { DEFAULT_MINOR_VERSION } from '../core/manifest';

/** Bad usage or unreadable input: printed on stderr, exit code 2 (design.md §3). */
export class UsageError {
  constructor(readonly message: string) {}
}

export const USAGE = `Usage:
  probe-lens check FILE... | - [--format text|json|sarif] [--disable ID,...]
                   [--kubernetes-version 1.33] [--expected-startup 60s]
  probe-lens probe --spec JSON|@file [--container JSON|@file] [--host H]
                   [--type liveness|readiness|startup]
  probe-lens simulate FILE [--scenario FILE] [--for 10m] [--seed N] [--format text|jsonl]
  probe-lens run FILE [--target local] [--port CONTAINER:LOCAL]... [--for 60s]
                 [--format text|jsonl] [--host H] [--allow-host H]... [--allow-exec]
  probe-lens run FILE --target cluster [--namespace NS] [--kubectl PATH] [--for 60s]
                 [--format text|jsonl] [--allow-exec]
  probe-lens rules [--format text|markdown|json]

check     validates probes: the API server's rules, what the kubelet will do, timing.
          Exit 0: no errors; 1: errors found; 2: bad usage or unreadable input.
probe     runs one probe once, as the kubelet would, and prints its result as JSON.
simulate  plays a manifest's pods on a virtual clock against a scenario of how the app behaves.
run       probes your app with the kubelet's timing, until --for or Ctrl-C: on this machine
          (--target local), or your pods through kubectl port-forward and exec (--target cluster).

Rules: see docs/rules.md, or 'probe-lens rules'.`;

/** `90s`, `10m`, `2h`, or plain seconds. */
export function parseDuration(text: string, option: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!match) throw new UsageError(`${option}: "${text}" is not a duration (examples: 90s, 10m, 2h)`);
  const unit = { ms: 0.001, s: 1, m: 60, h: 3600 }[(match[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  return Number(match[1]) * unit;
}

/** `--kubernetes-version 1.33` → 33; absent → the default minor version. */
export function minorVersionOption(text: string | undefined): number {
  if (text === undefined) return DEFAULT_MINOR_VERSION;
  const minor = parseKubernetesVersion(text);
  if (minor === undefined) throw new UsageError(`--kubernetes-version: "${text}" is not a Kubernetes version such as 1.33`);
  return minor;
}
