import type { ApiErrorKind, Issue } from '../types';
import type { Range } from '../../text/range';

/**
 * `field.Error` as kubectl prints it: `spec.containers[0].livenessProbe.successThreshold:
 * Invalid value: 2: must be 1`. Values are shown like Go's `%v` (strings quoted, `%q`).
 */
export function apiIssue(kind: Exclude<ApiErrorKind, 'UnknownField' | 'TypeMismatch'>, path: string, range: Range, detail: string, value?: unknown): Issue {
  return { kind, path, range, message: `${path}: ${errorBody(kind, detail, value)}` };
}

function errorBody(kind: ApiErrorKind, detail: string, value: unknown): string {
  switch (kind) {
    case 'Required':
      return detail ? `Required value: ${detail}` : 'Required value';
    case 'Forbidden':
      return detail ? `Forbidden: ${detail}` : 'Forbidden';
    case 'Invalid':
      return `Invalid value: ${goValue(value)}: ${detail}`;
    case 'NotSupported':
      return `Unsupported value: ${goValue(value)}: supported values: ${detail}`;
    default:
      return detail;
  }
}

function goValue(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  return String(value);
}
