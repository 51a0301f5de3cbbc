/** Figure 4 (filled in when the n8n engine harness lands). */
import type { Figure } from './stats.ts';
export async function n8nItems(_items: number): Promise<Figure[]> {
  return [];
}
