/** Bad usage or unreadable input: printed on stderr, exit code 2 (design.md §3). */
export class UsageError {
  constructor(readonly message: string) {}
}

export const USAGE = `Usage:
  probe-lens check FILE... | - [--format text|json|sarif] [--disable ID,...]
                   [--kubernetes-version 1.33] [--expected-startup 60s]

Checks the startup, readiness and liveness probes of Kubernetes manifests: the API server's
validation, what the kubelet will do at run time, and timing. Exit 0: no errors; 1: errors found;
2: bad usage or unreadable input.

Rules: see docs/rules.md, or 'probe-lens rules'.`;

/** `90s`, `10m`, `2h`, or plain seconds. */
export function parseDuration(text: string, option: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!match) throw new UsageError(`${option}: "${text}" is not a duration (examples: 90s, 10m, 2h)`);
  const unit = { ms: 0.001, s: 1, m: 60, h: 3600 }[(match[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  return Number(match[1]) * unit;
}
