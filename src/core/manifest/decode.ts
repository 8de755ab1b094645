import { isMap, isScalar, isSeq } from 'yaml';
import type { Range } from '../text/range';
import { type FieldSuggestion, suggestField } from './fieldSuggestions';
import { type Field, goTypeName, type Schema } from './schema';
import type { ValueNode, YamlNavigator } from './yamlNavigator';

/** Where a decoded value came from: its key (when it has one) and its value token. */
export interface SourceLocation {
  readonly key?: Range;
  readonly value: Range;
  /** `key:` with no value, `~` or `null`: decodes as "not set". */
  readonly isNull: boolean;
  /** The value was a quoted YAML string. */
  readonly quoted: boolean;
}

export interface DecodeIssue {
  readonly rule: 'D01' | 'D02';
  /** Full API path, e.g. `spec.containers[0].livenessProbe.failureTreshold`. */
  readonly path: string;
  readonly range: Range;
  readonly message: string;
  /** D01: the unknown key as written, and the known field it most likely meant. */
  readonly key?: string;
  readonly suggestion?: string;
  /** D02: the scalar that could not be stored (`"grpc"` for `grpc.port: grpc`). */
  readonly value?: unknown;
}

export interface Decoded {
  /** The object as Go would hold it: fields with decode errors are left unset. */
  readonly value: unknown;
  /**
   * `${NAME}` placeholders (envsubst) where a number or a boolean belongs: the text is a template
   * to fill in before applying, not a manifest with type errors.
   */
  readonly placeholders: readonly { readonly text: string; readonly range: Range }[];
  /** Keyed by the path relative to the decoded object (`livenessProbe.httpGet.port`, `ports[0]`, `` for the root). */
  readonly locations: ReadonlyMap<string, SourceLocation>;
  readonly issues: readonly DecodeIssue[];
}

export interface DecodeRoot {
  /** The API path of the decoded object (`spec.containers[0]`). */
  readonly path: string;
  /** The struct that holds it, for messages about its own type (`PodSpec`). */
  readonly parentStruct: string;
  /** Minor version of Kubernetes 1.x whose fields are known. */
  readonly minorVersion: number;
  /**
   * The object is a custom resource (an Argo Rollout): the API server checks its types against
   * the CRD's OpenAPI schema, and words a wrong type that way rather than as a Go decode error.
   */
  readonly customResource?: boolean;
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/**
 * Decodes a YAML node against a schema the way the API server's strict JSON decode does:
 * unknown or mis-cased fields are D01, values of the wrong JSON type are D02.
 */
export function decode(nav: YamlNavigator, node: ValueNode | null, schema: Schema, root: DecodeRoot, depth: number): Decoded {
  const decoder = new Decoder(nav, root.minorVersion, root.customResource === true);
  const value = decoder.decodeValue(node, schema, {
    relative: '',
    absolute: root.path,
    struct: root.parentStruct,
    depth,
  });
  return { value, locations: decoder.locations, issues: decoder.issues, placeholders: decoder.placeholders };
}

interface At {
  readonly relative: string;
  readonly absolute: string;
  /** The Go struct holding this value, for "Go struct field X.path" in messages. */
  readonly struct: string;
  readonly depth: number;
}

/** What envsubst and shell-style templating fill in: `${PORT}`, `${PORT:-8080}`. */
const PLACEHOLDER = /^\$\{[A-Za-z_][A-Za-z0-9_]*(?:[:]?[-=?+][^}]*)?\}$/;

class Decoder {
  readonly locations = new Map<string, SourceLocation>();
  readonly issues: DecodeIssue[] = [];
  readonly placeholders: { text: string; range: Range }[] = [];

  constructor(
    private readonly nav: YamlNavigator,
    private readonly minorVersion: number,
    private readonly customResource: boolean,
  ) {}

  decodeValue(node: ValueNode | null, schema: Schema, at: At): unknown {
    if (node === null || (isScalar(node) && node.value === null)) return undefined;
    if (isPlaceholder(node) && schema.type !== 'string' && schema.type !== 'opaque') {
      this.placeholders.push({ text: String((node as { value: unknown }).value), range: this.nav.rangeOf(node) });
      return undefined;
    }
    switch (schema.type) {
      case 'opaque':
        return OPAQUE;
      case 'int32':
      case 'int64':
        return this.decodeInteger(node, schema, at);
      case 'string':
        return this.decodeString(node, schema, at);
      case 'bool':
        if (isScalar(node) && typeof node.value === 'boolean') return node.value;
        return this.mismatch(node, schema, at);
      case 'intOrString':
        return this.decodeIntOrString(node, at);
      case 'list':
        return this.decodeList(node, schema, at);
      case 'object':
        return this.decodeObject(node, schema, at);
    }
  }

  private decodeInteger(node: ValueNode, schema: Schema, at: At): number | undefined {
    const number = scalarNumber(node);
    if (number === undefined) return this.mismatch(node, schema, at);
    // go-yaml hands JSON an integral float as an integer (`5.0` → 5), anything else fails.
    const fits = Number.isInteger(number) && (schema.type !== 'int32' || (number >= INT32_MIN && number <= INT32_MAX));
    if (!fits) return this.mismatch(node, schema, at, `number ${numberText(node)}`);
    return number;
  }

  private decodeString(node: ValueNode, schema: Schema, at: At): string | undefined {
    if (!isScalar(node)) return this.mismatch(node, schema, at);
    const value = node.value;
    if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return this.mismatch(node, schema, at);
    // Timestamps and other 1.1 scalars reach the API as the text that was written.
    return typeof value === 'string' ? value : (node.source ?? String(value));
  }

  /** IntOrString decodes on its own, so its errors name no struct field (Go: "into Go value of type int32"). */
  private decodeIntOrString(node: ValueNode, at: At): number | string | undefined {
    if (isScalar(node) && typeof node.value === 'string') return node.value;
    const number = scalarNumber(node);
    if (number !== undefined && Number.isInteger(number) && number >= INT32_MIN && number <= INT32_MAX) return number;
    const kind = number !== undefined ? `number ${numberText(node)}` : jsonKind(node);
    this.report('D02', at, node, `json: cannot unmarshal ${kind} into Go value of type int32`);
    return undefined;
  }

  private decodeList(node: ValueNode, schema: Extract<Schema, { type: 'list' }>, at: At): unknown[] | undefined {
    if (!isSeq(node)) return this.mismatch(node, schema, at);
    const items = this.nav.items(node, at.depth);
    return items.map((item, index) => {
      const relative = `${at.relative}[${index}]`;
      const absolute = `${at.absolute}[${index}]`;
      if (item !== null) this.locations.set(relative, location(this.nav, item, undefined));
      const value = this.decodeValue(item, schema.items, { ...at, relative, absolute, depth: at.depth + 1 });
      return value === undefined ? zeroValue(schema.items) : value;
    });
  }

  private decodeObject(node: ValueNode, schema: Extract<Schema, { type: 'object' }>, at: At): Record<string, unknown> | undefined {
    if (!isMap(node)) return this.mismatch(node, schema, at);
    const result: Record<string, unknown> = {};
    const entries = this.nav.entries(node, at.depth);
    // A strategic-merge patch (kustomize) deleting this object: it is not there at all.
    if (entries.some((e) => e.key === '$patch' && isScalar(e.value) && e.value.value === 'delete')) return undefined;
    for (const entry of entries) {
      if (isPatchDirective(entry.key)) continue;
      const relative = at.relative === '' ? entry.key : `${at.relative}.${entry.key}`;
      const absolute = `${at.absolute}.${entry.key}`;
      const field: Field | undefined = Object.hasOwn(schema.fields, entry.key) ? schema.fields[entry.key] : undefined;
      if (!field || (field.since !== undefined && field.since > this.minorVersion)) {
        if (!schema.partial) this.reportUnknown(entry.key, entry.keyRange, absolute, schema, field);
        continue;
      }
      this.locations.set(relative, location(this.nav, entry.value, entry.keyRange));
      const value = this.decodeValue(entry.value, field.schema, {
        relative,
        absolute,
        struct: schema.goName,
        depth: at.depth + 1,
      });
      if (value !== undefined) result[entry.key] = value;
    }
    return result;
  }

  private reportUnknown(key: string, keyRange: Range, absolute: string, schema: Extract<Schema, { type: 'object' }>, field: Field | undefined) {
    const later: FieldSuggestion | undefined = field?.since !== undefined ? { hint: ` (added in Kubernetes 1.${field.since}; this check targets 1.${this.minorVersion})` } : undefined;
    const { hint, suggestion } = later ?? suggestField(key, schema);
    this.issues.push({
      rule: 'D01',
      path: absolute,
      range: keyRange,
      message: `strict decoding error: unknown field "${absolute}"${hint}`,
      key,
      ...(suggestion !== undefined ? { suggestion } : {}),
    });
  }

  private mismatch(node: ValueNode, schema: Schema, at: At, kind = jsonKind(node)): undefined {
    if (this.customResource) {
      // apiextensions' schema validation: `<path>: Invalid value: "string": <path> in body must be of type integer: "string"`.
      const given = JSON.stringify(openApiType(node));
      this.report('D02', at, node, `${at.absolute}: Invalid value: ${given}: ${at.absolute} in body must be of type ${openApiTypeOf(schema)}: ${given}`);
      return undefined;
    }
    const goField = `${at.struct}.${at.absolute.replace(/\[\d+\]/g, '')}`;
    let message = `json: cannot unmarshal ${kind} into Go struct field ${goField} of type ${goTypeName(schema)}`;
    if (kind === 'string' && (schema.type === 'int32' || schema.type === 'int64') && isScalar(node) && /^-?\d+$/.test(String(node.value))) {
      message += `; write ${String(node.value)} without quotes`;
    }
    this.report('D02', at, node, message);
    return undefined;
  }

  private report(rule: 'D01' | 'D02', at: At, node: ValueNode, message: string) {
    const value = isScalar(node) ? { value: node.value } : {};
    this.issues.push({ rule, path: at.absolute, range: this.nav.rangeOf(node), message, ...value });
  }
}

/**
 * Strategic-merge patch directives (`$patch: replace|delete|merge`, `$retainKeys`,
 * `$setElementOrder/<list>`, `$deleteFromPrimitiveList/<list>`): instructions to kustomize or
 * `kubectl patch`, read off before the object reaches the API, never unknown fields.
 */
function isPatchDirective(key: string): boolean {
  return key === '$patch' || key === '$retainKeys' || key.startsWith('$setElementOrder/') || key.startsWith('$deleteFromPrimitiveList/');
}

function isPlaceholder(node: ValueNode): boolean {
  return isScalar(node) && typeof node.value === 'string' && node.value.startsWith('${') && PLACEHOLDER.test(node.value);
}

/** Stands for a value decoded for its presence only (see `opaque` in schema.ts). */
export const OPAQUE: unique symbol = Symbol('opaque');

function location(nav: YamlNavigator, value: ValueNode | null, key: Range | undefined): SourceLocation {
  const isNull = value === null || (isScalar(value) && value.value === null);
  const quoted = isScalar(value) && (value.type === 'QUOTE_DOUBLE' || value.type === 'QUOTE_SINGLE');
  // `key:` with nothing after it has an empty value token: point at the key instead.
  const empty = value === null || value.range?.[0] === value.range?.[1];
  const valueRange = empty && key ? key : nav.rangeOf(value as ValueNode);
  return key ? { key, value: valueRange, isNull, quoted } : { value: valueRange, isNull, quoted };
}

function scalarNumber(node: ValueNode): number | undefined {
  if (!isScalar(node)) return undefined;
  if (typeof node.value === 'number') return node.value;
  if (typeof node.value === 'bigint') return Number(node.value);
  return undefined;
}

function numberText(node: ValueNode): string {
  return isScalar(node) ? (node.source ?? String(node.value)) : '';
}

/** How Go's encoding/json names the JSON value it could not store. */
function jsonKind(node: ValueNode): string {
  if (isMap(node)) return 'object';
  if (isSeq(node)) return 'array';
  const value = (node as { value: unknown }).value;
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number' || typeof value === 'bigint') return 'number';
  return 'string';
}

/** The OpenAPI type a value was given as, as apiextensions names it. */
function openApiType(node: ValueNode): string {
  if (isMap(node)) return 'object';
  if (isSeq(node)) return 'array';
  const value = (node as { value: unknown }).value;
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value))) return 'integer';
  if (typeof value === 'number') return 'number';
  return 'string';
}

/** The OpenAPI type the CRD's schema declares for a field (int32 and int64 are `integer`). */
function openApiTypeOf(schema: Schema): string {
  switch (schema.type) {
    case 'int32':
    case 'int64':
      return 'integer';
    case 'bool':
      return 'boolean';
    case 'list':
      return 'array';
    case 'intOrString':
      return 'integer,string';
    default:
      return schema.type;
  }
}

function zeroValue(schema: Schema): unknown {
  switch (schema.type) {
    case 'string':
      return '';
    case 'int32':
    case 'int64':
    case 'intOrString':
      return 0;
    case 'bool':
      return false;
    case 'list':
      return [];
    case 'object':
      return {};
    case 'opaque':
      return OPAQUE;
  }
}
