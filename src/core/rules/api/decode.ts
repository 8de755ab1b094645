import { type DecodeIssue, documentDecodeIssues, type ManifestDocument } from '../../manifest';
import type { DocumentRule, Issue } from '../types';

/** Decode stage (docs/spec/validation-rules.md §A.5): the API server refuses the object before validating it. */
const decodeStage = { scope: 'document', severity: 'error', category: 'api' } as const;

export const D01: DocumentRule = {
  ...decodeStage,
  id: 'D01',
  title: 'Unknown or mis-cased field in a container or probe (strict decoding rejects it).',
  reference: 'validation-rules.md §A.5 D01',
  check: (document) =>
    decodeIssues(document, 'D01').map((issue) => ({
      path: issue.path,
      range: issue.range,
      message: issue.message,
      kind: 'UnknownField',
      ...(issue.suggestion !== undefined ? { fixes: [{ title: `Rename to ${issue.suggestion}`, edits: [{ range: issue.range, newText: issue.suggestion }] }] } : {}),
    })),
};

export const D02: DocumentRule = {
  ...decodeStage,
  id: 'D02',
  title: 'Value of the wrong type, e.g. a quoted number for an integer or a name for grpc.port.',
  reference: 'validation-rules.md §A.5 D02',
  check: (document) => decodeIssues(document, 'D02').map((issue): Issue => ({ path: issue.path, range: issue.range, message: issue.message, kind: 'TypeMismatch' })),
};

/**
 * Decoding comes before validation (docs/spec/validation-rules.md §A.1), so a misspelled field inside a
 * probe that validation will forbid as a whole (P14, P16) still fails the request on its own.
 */
function decodeIssues(document: ManifestDocument, rule: 'D01' | 'D02'): DecodeIssue[] {
  return documentDecodeIssues(document).filter((issue) => issue.rule === rule);
}
