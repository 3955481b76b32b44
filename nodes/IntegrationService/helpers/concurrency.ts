/**
 * Runs `task` for indexes 0..count-1 with at most `limit` in flight, and returns the results in
 * index order, so output stays in input order whatever finishes first. After a failure no new task
 * starts, `onFailure` tells the tasks in flight to stop what they can, and the first failure is
 * thrown only once every task in flight has settled: nothing of the run lands after it has failed.
 */
export async function mapInOrder<T>(
	count: number,
	limit: number,
	task: (index: number) => Promise<T>,
	onFailure: () => void = () => undefined,
): Promise<T[]> {
	const results = new Array<T>(count);
	let next = 0;
	let failure: { error: unknown } | undefined;
	const worker = async () => {
		while (!failure && next < count) {
			const index = next++;
			try {
				results[index] = await task(index);
			} catch (error) {
				if (!failure) {
					failure = { error };
					onFailure();
				}
			}
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, count)) }, worker));
	if (failure) throw failure.error;
	return results;
}
