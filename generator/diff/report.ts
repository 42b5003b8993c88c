/** How changes are shown: one line each, a JSON report, the semver bump they call for, and a CHANGELOG entry. */
import type { Change } from './compare.js';

/** `breaking      spec/openapi.yaml:512  GET /pets: removed response 200 required member name (and 2 more)`. */
export function changeLine(change: Change): string {
  const more = change.also.length === 0 ? '' : ` (and ${change.also.length} more)`;
  return `${change.kind.padEnd(12)} ${change.file}:${change.line}  ${change.subject}: ${change.action} ${change.what}${more}`;
}

/** The `--json` report: counts, then every change. */
export function jsonReport(changes: readonly Change[]): string {
  const breaking = changes.filter((c) => c.kind === 'breaking').length;
  return `${JSON.stringify({ breaking, nonBreaking: changes.length - breaking, changes }, null, 2)}\n`;
}

export type Bump = 'major' | 'minor' | 'patch';

/** Major for a breaking change, minor for an addition, patch for anything else; undefined when nothing changed. */
export function bumpOf(changes: readonly Change[]): Bump | undefined {
  if (changes.length === 0) return undefined;
  if (changes.some((c) => c.kind === 'breaking')) return 'major';
  return changes.some((c) => c.action === 'added') ? 'minor' : 'patch';
}

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:[-+].*)?$/;

/** `version` raised by `bump` (a pre-release or build suffix is dropped); undefined when it is not semver. */
export function bumped(version: string, bump: Bump): string | undefined {
  const match = SEMVER.exec(version);
  if (match === null) return undefined;
  const [major, minor, patch] = match.slice(1, 4).map(Number) as [number, number, number];
  if (bump === 'major') return `${major + 1}.0.0`;
  if (bump === 'minor') return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

/**
 * A CHANGELOG entry for `version`: the changes grouped by operation or event (in name order), breaking ones first
 * within each. No date: the same documents always give the same text.
 */
export function changelogEntry(version: string, base: string, changes: readonly Change[]): string {
  const bySubject = new Map<string, Change[]>();
  for (const change of changes) bySubject.set(change.subject, [...(bySubject.get(change.subject) ?? []), change]);
  const lines = [`## ${version}`, '', `Compared with ${base}.`, ''];
  for (const subject of [...bySubject.keys()].sort()) {
    lines.push(`### ${subject}`, '');
    const list = bySubject.get(subject) ?? [];
    const ordered = [...list.filter((c) => c.kind === 'breaking'), ...list.filter((c) => c.kind !== 'breaking')];
    for (const c of ordered) {
      const more = c.also.length === 0 ? '' : ` (also ${c.also.join(', ')})`;
      lines.push(`- ${c.kind === 'breaking' ? '**Breaking:** ' : ''}${c.action} ${c.what}${more}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/**
 * `existing` (a CHANGELOG's text, or empty) with `entry` first; an entry already there for the same version is
 * replaced, so that releasing twice from the same documents writes the same file.
 */
export function withEntry(existing: string, entry: string, version: string): string {
  const title = '# Changelog\n\n';
  const body = existing.startsWith(title) ? existing.slice(title.length) : existing;
  const entries = body.split(/^(?=## )/m).filter((e) => e.trim() !== '' && !e.startsWith(`## ${version}\n`));
  return `${title}${[entry.trimEnd(), ...entries.map((e) => e.trimEnd())].join('\n\n').trimEnd()}\n`;
}
