import { API_FIELD_DOCS } from './apiFieldDocs';
import { API_HANDLER_DOCS } from './apiHandlerDocs';
import { EXEC_DOCS } from './execDocs';
import { PORT_DOCS } from './portDocs';
import { TIMING_DOCS } from './timingDocs';
import type { RuleDoc } from './types';
import { WORKLOAD_DOCS } from './workloadDocs';
import { YAML_DOCS } from './yamlDocs';

export type { RuleDoc, RuleExample } from './types';
export { type Block, blocksOf, CATEGORY_TITLES, inlineSpans, type RulePage, rulePage } from './page';

/** The user documentation of every rule, by id (a test checks that every registered rule has one). */
export const RULE_DOCS: ReadonlyMap<string, RuleDoc> = new Map(
  Object.entries({ ...YAML_DOCS, ...API_HANDLER_DOCS, ...API_FIELD_DOCS, ...PORT_DOCS, ...TIMING_DOCS, ...EXEC_DOCS, ...WORKLOAD_DOCS }),
);
