import { isAbsolute, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RULE_INFO } from '../../core/rules/registry';
import type { Finding, Severity } from '../../core/rules/types';
import { ruleHelpMarkdown, ruleHelpText } from './ruleDocs';

const LEVEL: Readonly<Record<Severity, 'error' | 'warning' | 'note'>> = { error: 'error', warning: 'warning', info: 'note' };

/**
 * SARIF 2.1.0 as GitHub code scanning takes it: every rule in the driver, results pointing at
 * repository-relative files (`%SRCROOT%`), 1-based lines and UTF-16 columns.
 */
/** A render that failed, as SARIF reports a tool's own trouble: beside the results, never as one. */
export interface ToolNotification {
  readonly message: string;
  /** Absolute, when the failure is placed in a file. */
  readonly file?: string;
  /** 0-based. */
  readonly line?: number;
  readonly character?: number;
}

export function formatSarif(findings: readonly Finding[], version: string, cwd: string, notifications: readonly ToolNotification[] = []): string {
  const rules = Array.from(RULE_INFO.values());
  const index = new Map(rules.map((r, i) => [r.id, i]));
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'probe-lens',
            version,
            semanticVersion: version,
            rules: rules.map((rule) => ({
              id: rule.id,
              name: rule.id,
              shortDescription: { text: rule.title },
              fullDescription: { text: rule.title },
              // What users read beside an alert: the rule's own documentation, not the specifications behind it.
              help: { text: ruleHelpText(rule), markdown: ruleHelpMarkdown(rule) },
              defaultConfiguration: { level: LEVEL[rule.severity] },
              properties: { tags: ['kubernetes', 'probes', rule.category] },
            })),
          },
        },
        // A chart that did not render is no finding, but a code-scanning page must not read as
        // "nothing found" for it: SARIF's own place for that is the invocation's notifications.
        invocations: [
          {
            executionSuccessful: notifications.length === 0,
            toolExecutionNotifications: notifications.map((n) => ({
              level: 'error',
              message: { text: n.message },
              ...(n.file
                ? {
                    locations: [
                      {
                        physicalLocation: {
                          artifactLocation: artifact(n.file, cwd),
                          ...(n.line !== undefined ? { region: { startLine: n.line + 1, ...(n.character !== undefined ? { startColumn: n.character + 1 } : {}) } } : {}),
                        },
                      },
                    ],
                  }
                : {}),
            })),
          },
        ],
        columnKind: 'utf16CodeUnits',
        originalUriBaseIds: { SRCROOT: { uri: pathToFileURL(cwd.endsWith(sep) ? cwd : cwd + sep).href } },
        results: findings.map((finding) => ({
          ruleId: finding.rule,
          ruleIndex: index.get(finding.rule) ?? -1,
          level: LEVEL[finding.severity],
          message: { text: finding.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: artifact(finding.file, cwd),
                region: {
                  startLine: finding.range.start.line + 1,
                  startColumn: finding.range.start.character + 1,
                  endLine: finding.range.end.line + 1,
                  endColumn: finding.range.end.character + 1,
                },
              },
              ...(finding.path || finding.object ? { logicalLocations: logicalLocationsOf(finding) } : {}),
            },
          ],
          // A finding on a rendered chart or overlay is placed where it is fixed; where it sits in
          // the rendered output is the related location (the output is no file, so it is named).
          ...(finding.rendered
            ? {
                relatedLocations: [
                  {
                    id: 0,
                    message: { text: `rendered: document ${finding.rendered.doc + 1}${finding.rendered.source ? ` (# Source: ${finding.rendered.source})` : ''}, line ${finding.rendered.range.start.line + 1} of the output, ${finding.rendered.path}` },
                    logicalLocations: [{ fullyQualifiedName: finding.rendered.path, kind: 'member' }],
                  },
                ],
              }
            : {}),
          properties: { doc: finding.doc, ...(finding.object ? { object: objectName(finding.object), ...(finding.object.namespace ? { namespace: finding.object.namespace } : {}) } : {}), ...(finding.container ? { container: finding.container } : {}), ...(finding.kind ? { kind: finding.kind } : {}), ...(finding.rendered ? { placed: finding.rendered.placed, ...(finding.rendered.valuesKey ? { valuesKey: finding.rendered.valuesKey } : {}) } : {}) },
        })),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

/** The object (`Deployment/cartservice`, a code-scanning alert's "where" beside its line), then the field. */
function logicalLocationsOf(finding: Finding): { name?: string; fullyQualifiedName: string; kind: string }[] {
  const object = finding.object ? [{ ...(finding.object.name ? { name: finding.object.name } : {}), fullyQualifiedName: objectName(finding.object), kind: 'resource' }] : [];
  const field = finding.path ? [{ fullyQualifiedName: finding.path, kind: 'member' }] : [];
  return [...object, ...field];
}

/** `Deployment/cartservice`, kind and name as kubectl writes them (`kubectl get Deployment/cartservice`). */
function objectName(object: NonNullable<Finding['object']>): string {
  return object.name ? `${object.kind}/${object.name}` : object.kind;
}

function artifact(file: string, cwd: string): { uri: string; uriBaseId?: string } {
  if (file === '<stdin>') return { uri: 'stdin' };
  const absolute = isAbsolute(file) ? file : `${cwd}${sep}${file}`;
  const inside = relative(cwd, absolute);
  if (inside.startsWith('..') || isAbsolute(inside)) return { uri: pathToFileURL(absolute).href };
  return { uri: inside.split(sep).map(encodeURIComponent).join('/'), uriBaseId: 'SRCROOT' };
}
