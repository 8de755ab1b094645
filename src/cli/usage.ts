import { parseKubernetesVersion, SUPPORTED_MINOR_VERSIONS } from '../core/check';
import { DEFAULT_MINOR_VERSION } from '../core/manifest';

/** Bad usage or unreadable input: printed on stderr, exit code 2 (docs/design.md §3). */
export class UsageError {
  constructor(readonly message: string) {}
}

export const USAGE = `Usage:
  probe-lens check PATH... | - [--format text|json|sarif] [--disable ID,...]
                   [--kubernetes-version 1.33] [--expected-startup 60s]
                   [-f VALUES]... [--set K=V]... [--release NAME] [-n NS] [--helm PATH] [--kustomize PATH]
  probe-lens probe --spec JSON|@file [--container JSON|@file] [--host H]
                   [--type liveness|readiness|startup]
  probe-lens simulate FILE [--scenario FILE] [--for 10m] [--seed N] [--format text|jsonl|html]
  probe-lens run FILE [--target local] [--port CONTAINER:LOCAL]... [--for 60s]
                 [--format text|jsonl|html] [--host H] [--allow-host H]... [--allow-exec]
  probe-lens run FILE --target cluster [--context C] [--namespace NS] [--all-pods]
                 [--kubectl PATH] [--for 60s] [--format text|jsonl|html] [--allow-exec]
  probe-lens explain RECORDING.jsonl | - [--at T] [--pod P] [--container C] [--format text|json]
  probe-lens recommend FILE --from RECORDING.jsonl | - [--format patch|json] [--kubernetes-version 1.33]
  probe-lens scenario RECORDING.jsonl | -
  probe-lens replay RECORDING.jsonl | - --manifest FILE [--format text|json] [--kubernetes-version 1.33]
  probe-lens rules [--format text|markdown|json]

check     validates probes: the API server's rules, what the kubelet will do, timing. Helm charts
          and kustomize overlays are rendered first, each finding placed where it is fixed.
          Exit 0: no errors; 1: errors found; 2: bad usage, unreadable input, or a failed render.
probe     runs one probe once, as the kubelet would, and prints its result as JSON.
simulate  plays a manifest's pods on a virtual clock against a scenario of how the app behaves.
run       probes your app with the kubelet's timing, until --for or Ctrl-C: on this machine
          (--target local), or your pods, watched live, through the API server (--target cluster).
          --format html (simulate, run) writes one self-contained page: the timeline panel's view.
recommend measures a recording's probes (latency, start-up, failure bursts) and suggests values for
          FILE: the reasoning as # lines and a patch for git apply / patch -p1, or JSON.
scenario  how the app behaved in a recording, as a scenario for 'simulate --scenario'.
replay    what another configuration would have done with the app a recording saw, before → after.
explain   why each container of a recording is in its state at a moment, citing the lines that say so.

'probe-lens COMMAND --help' tells more of each. Rules: see docs/rules.md, or 'probe-lens rules'.`;

const DURATION_UNITS = { ms: 0.001, s: 1, m: 60, h: 3600 } as const;

/** `90s`, `10m`, `2h`, `500ms` → seconds. A bare number is refused: `--for 10` could mean seconds or minutes. */
export function parseDuration(text: string, option: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!match) throw new UsageError(`${option}: "${text}" is not a duration: give a number and a unit, ms, s, m or h (90s, 10m, 2h)`);
  const [, amount, unit] = match;
  if (unit === undefined) throw new UsageError(`${option}: "${text}" has no unit: give ${amount}s, ${amount}m or ${amount}h (units: ms, s, m, h)`);
  return Number(amount) * DURATION_UNITS[unit as keyof typeof DURATION_UNITS];
}

/** `--kubernetes-version 1.33` → 33; absent → the default minor version. */
export function minorVersionOption(text: string | undefined): number {
  if (text === undefined) return DEFAULT_MINOR_VERSION;
  const minor = parseKubernetesVersion(text);
  const { oldest, newest } = SUPPORTED_MINOR_VERSIONS;
  if (minor === undefined) throw new UsageError(`--kubernetes-version: "${text}" is not supported; give 1.N or v1.N with N from ${oldest} to ${newest}, such as 1.${DEFAULT_MINOR_VERSION} (no patch version)`);
  return minor;
}
