import { D01, D02 } from './api/decode';
import { P01, P02, P03, P04, P05, P06, P07, P08 } from './api/handler';
import { P14, P16, P17 } from './api/placement';
import { P09, P10, P11, P12, P13 } from './api/probeFields';
import { L19, L20, L21 } from './runtime/exec';
import { L01, L02, L03, L04, L05, L06, L08 } from './runtime/ports';
import { L07, L09 } from './runtime/target';
import { L26, L26Sidecar } from './runtime/version';
import { L17, L18, L22, L24, L29, L30 } from './runtime/workload';
import { L10, L11, L12, L13, L14, L15, L16, L27, L28 } from './timing/timingRules';
import type { Rule, Severity } from './types';
import { Y01, Y02, Y03, Y04 } from './yaml/yamlRules';

/**
 * Every rule, in the order findings at the same place are listed. Ids: Y = the file as a whole (YAML, limits, what is not checked), P/D = the API
 * server (docs/spec/validation-rules.md §A), L = checks beyond it (the number is the §D item, L27–L29 the
 * second check of items 13, 15 and 17).
 */
export const RULES: readonly Rule[] = [
  Y01, Y02, Y03, Y04,
  D01, D02,
  P01, P02, P03, P04, P05, P06, P07, P08, P09, P10, P11, P12, P13, P14, P16, P17,
  L01, L02, L03, L04, L05, L06, L07, L08, L09,
  L10, L11, L12, L13, L27, L14, L15, L28, L16,
  L17, L30, L29, L18,
  L19, L20, L21,
  L22, L24,
  L26, L26Sidecar,
];

export interface RuleInfo {
  readonly id: string;
  readonly severity: Severity;
  readonly alsoReports?: { readonly severity: Severity; readonly when: string };
  readonly category: Rule['category'];
  readonly title: string;
  readonly reference: string;
}

/** One entry per id (a rule may be implemented at two scopes, like L26), in registry order. */
export const RULE_INFO: ReadonlyMap<string, RuleInfo> = (() => {
  const info = new Map<string, RuleInfo>();
  for (const r of RULES) {
    if (!info.has(r.id)) info.set(r.id, { id: r.id, severity: r.severity, ...(r.alsoReports ? { alsoReports: r.alsoReports } : {}), category: r.category, title: r.title, reference: r.reference });
  }
  return info;
})();

/** Canonical ids for user input (`p12` → `P12`), or the unknown ones. */
export function normaliseRuleIds(ids: readonly string[]): { known: string[]; unknown: string[] } {
  const known: string[] = [];
  const unknown: string[] = [];
  for (const raw of ids) {
    const id = raw.trim().toUpperCase();
    if (id === '') continue;
    (RULE_INFO.has(id) ? known : unknown).push(RULE_INFO.has(id) ? id : raw.trim());
  }
  return { known, unknown };
}
