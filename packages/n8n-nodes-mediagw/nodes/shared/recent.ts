/**
 * Keys seen lately, in this process: the same notification delivered twice (gateways retry, and
 * may deliver again after an answer was lost) must start one run, not two. Bounded in size and in
 * time; per process, so with several webhook processors a repeat that reaches another one passes.
 */
export class RecentKeys {
	readonly #seen = new Map<string, number>();
	readonly #max: number;

	constructor(max = 50_000) {
		this.#max = max;
	}

	/** True if `key` was seen within `windowMs` before `now`; otherwise records it and returns false. */
	repeat(key: string, windowMs: number, now: number = Date.now()): boolean {
		const first = this.#seen.get(key);
		if (first !== undefined && now - first <= windowMs) return true;
		this.#seen.delete(key);
		this.#seen.set(key, now);
		// Oldest first: drop what has expired, and the oldest beyond the bound.
		for (const [old, at] of this.#seen) {
			if (this.#seen.size <= this.#max && now - at <= windowMs) break;
			this.#seen.delete(old);
		}
		return false;
	}
}
