/** Component schema names as references write them: `#/components/schemas/X`, its token escaped. */

/** The component name a `#/components/schemas/X` reference names, or undefined. */
export function componentName(ref: unknown): string | undefined {
  if (typeof ref !== 'string') return undefined;
  const token = /#\/components\/schemas\/([^/]+)$/.exec(ref)?.[1];
  return token === undefined ? undefined : pointerToken(token);
}

/** A reference's last token as the name it stands for (RFC 6901 escapes and URI percent-encoding undone). */
export function pointerToken(token: string): string {
  let decoded = token;
  try {
    decoded = decodeURIComponent(token);
  } catch {
    // Not percent-encoded after all.
  }
  return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
}
