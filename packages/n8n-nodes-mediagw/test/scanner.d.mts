// The scanner's module ships no types; the part the tests and scripts use.
declare module '@n8n/scan-community-package/scanner/scanner.mjs' {
  export function analyzePackage(
    packageDir: string,
    filePatterns?: string[],
  ): Promise<{ passed: boolean; message?: string; details?: string }>;
}
