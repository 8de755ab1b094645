/**
 * The API server's validation helpers for probe fields, with their exact messages
 * (k8s.io/apimachinery/pkg/util/validation, pkg/apis/core/validation). Each returns the list of
 * violated sub-rules: the API server emits one error per message.
 */

export function isValidPortNum(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : ['must be between 1 and 65535, inclusive'];
}

const PORT_NAME_CHARSET = /^[-a-z0-9]+$/;
const PORT_NAME_ONE_LETTER = /[a-z]/;

/** IANA_SVC_NAME (P06): checked one sub-rule at a time, as `IsValidPortName` does. */
export function isValidPortName(name: string): string[] {
  const errors: string[] = [];
  if (name.length > 15) errors.push('must be no more than 15 characters');
  if (!PORT_NAME_CHARSET.test(name)) errors.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!PORT_NAME_ONE_LETTER.test(name)) errors.push('must contain at least one letter (a-z)');
  if (name.includes('--')) errors.push('must not contain consecutive hyphens');
  if (name.length > 0 && (name.startsWith('-') || name.endsWith('-'))) errors.push('must not begin or end with a hyphen');
  return errors;
}

const HTTP_HEADER_NAME = /^[-A-Za-z0-9]+$/;

export function isHttpHeaderName(name: string): string[] {
  return HTTP_HEADER_NAME.test(name)
    ? []
    : ["a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')"];
}

export const SUPPORTED_HTTP_SCHEMES = ['HTTP', 'HTTPS'] as const;

export function isNonNegative(value: number): string[] {
  return value >= 0 ? [] : ['must be greater than or equal to 0'];
}
