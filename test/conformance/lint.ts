/**
 * External linters on both spec documents: Redocly CLI (`recommended` rules) and Spectral (the `oas` and `asyncapi`
 * rulesets, `.spectral.yaml`), run as child processes; their findings are normalised, and the warnings kept on
 * purpose are read from the "Lint warnings we keep" section of spec/DECISIONS.md.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** The repository root (where `node_modules/.bin` and `.spectral.yaml` are). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** One finding of a linter, with the subject a DECISIONS.md entry names it by. */
export interface LintFinding {
  readonly tool: 'redocly' | 'spectral';
  readonly rule: string;
  readonly severity: 'error' | 'warn' | 'info' | 'hint';
  readonly file: string;
  /** `GET /path` for an operation, the component or AsyncAPI operation name, `info`, … */
  readonly subject: string;
  readonly message: string;
}

/** An entry of "Lint warnings we keep": a rule and the subjects it is kept for. */
export interface KeptWarning {
  readonly rule: string;
  readonly subjects: readonly string[];
}

const SEVERITIES = ['error', 'warn', 'info', 'hint'] as const;

function run(args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      // Both tools exit non-zero when they find errors; their JSON on stdout says what.
      if (stdout.trim().startsWith('{') || stdout.trim().startsWith('[')) resolve(stdout);
      else reject(new Error(`${args.join(' ')} failed: ${error?.message ?? ''}\n${stderr}`));
    });
  });
}

/** `redocly lint --extends recommended` on one document. */
export async function redocly(file: string): Promise<LintFinding[]> {
  const out = await run(['node_modules/.bin/redocly', 'lint', file, '--extends', 'recommended', '--format', 'json']);
  const problems = (
    JSON.parse(out) as {
      problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
    }
  ).problems;
  return problems.map((p) => ({
    tool: 'redocly',
    rule: p.ruleId,
    severity: p.severity === 'warn' ? 'warn' : p.severity === 'error' ? 'error' : 'info',
    file,
    subject: subjectOf(pointerSegments(p.location[0]?.pointer ?? '')),
    message: p.message,
  }));
}

/** `spectral lint` with the root `.spectral.yaml` on the documents. */
export async function spectral(files: readonly string[]): Promise<LintFinding[]> {
  const out = await run(['node_modules/.bin/spectral', 'lint', ...files, '-r', '.spectral.yaml', '-f', 'json', '-q']);
  const results = JSON.parse(out) as {
    code: string;
    severity: number;
    message: string;
    path: (string | number)[];
    source: string;
  }[];
  return results.map((r) => ({
    tool: 'spectral',
    rule: r.code,
    severity: SEVERITIES[r.severity] ?? 'error',
    file: r.source.replace(ROOT, ''),
    subject: subjectOf(r.path.map(String)),
    message: r.message,
  }));
}

/** The warnings kept on purpose: each bullet of the section, "- `rule` on `subject`, `subject`: why". */
export async function keptWarnings(decisionsFile = `${ROOT}spec/DECISIONS.md`): Promise<KeptWarning[]> {
  const text = await readFile(decisionsFile, 'utf8');
  const section = /^## Lint warnings we keep\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(text)?.[1] ?? '';
  // A bullet may continue on indented lines; its head runs to the first colon outside backticks.
  const bullets = section.split(/\n(?=- )/).map((b) => b.replace(/\n\s+/g, ' ').trim());
  return bullets
    .filter((bullet) => bullet.startsWith('- `'))
    .map((bullet) => {
      const names = [...headOf(bullet).matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
      return { rule: names[0] ?? '', subjects: names.slice(1) };
    });
}

/** The text of a bullet before its first `:` outside backticks. */
function headOf(bullet: string): string {
  let quoted = false;
  for (let i = 0; i < bullet.length; i++) {
    if (bullet[i] === '`') quoted = !quoted;
    else if (bullet[i] === ':' && !quoted) return bullet.slice(0, i);
  }
  return bullet;
}

/** Whether `finding` is one of the `kept` warnings. */
export function isKept(finding: LintFinding, kept: readonly KeptWarning[]): boolean {
  return kept.some((k) => k.rule === finding.rule && k.subjects.includes(finding.subject));
}

function pointerSegments(pointer: string): string[] {
  return pointer
    .replace(/^#?\//, '')
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The name a finding is listed under: `GET /path` for a path item member, else the object's own name. */
function subjectOf(path: readonly string[]): string {
  const [first, second, third] = path;
  if (first === 'paths' && second !== undefined) return third ? `${third.toUpperCase()} ${second}` : second;
  if ((first === 'components' || first === 'channels' || first === 'operations') && second !== undefined)
    return first === 'components' ? (third ?? second) : second;
  return first ?? '';
}
