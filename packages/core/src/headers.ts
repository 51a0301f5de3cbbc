/** Response headers as any transport hands them over, read case-insensitively. */
export type HeaderBag = Record<string, string | string[] | undefined>;

export function header(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  if (value !== undefined) return Array.isArray(value) ? value[0] : value;
  for (const [key, v] of Object.entries(headers)) {
    if (key.toLowerCase() === name.toLowerCase()) return Array.isArray(v) ? v[0] : v;
  }
  return undefined;
}
