/**
 * Runs `task(0..count-1)` with at most `limit` in flight. Results are written by index by the
 * caller, so output order never depends on which answer comes first. After the first failure no
 * new task starts; the ones in flight finish, then that failure is thrown.
 */
export async function forEachLimited(
	count: number,
	limit: number,
	task: (index: number) => Promise<void>,
): Promise<void> {
	let next = 0;
	let failure: { error: unknown } | undefined;
	const worker = async () => {
		while (failure === undefined && next < count) {
			const index = next++;
			try {
				await task(index);
			} catch (error) {
				failure ??= { error };
			}
		}
	};
	const workers = Math.max(1, Math.min(limit, count));
	await Promise.all(Array.from({ length: workers }, worker));
	if (failure) throw failure.error;
}
