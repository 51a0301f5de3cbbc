/** Figure 5 (filled in when the Action's dist lands). */
import type { Figure } from './stats.ts';
export async function actionStart(_baseUrl: string, _repeats: number): Promise<Figure[]> {
  return [];
}
