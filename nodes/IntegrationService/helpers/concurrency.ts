/**
 * Runs `task` for indexes 0..count-1 with at most `limit` in flight, and returns the results in
 * index order, so output stays in input order whatever finishes first. After a failure no new task
 * starts (the node is stopping), and the first failure is what the caller sees.
 */
export async function mapInOrder<T>(
	count: number,
	limit: number,
	task: (index: number) => Promise<T>,
): Promise<T[]> {
	const results = new Array<T>(count);
	let next = 0;
	let failed = false;
	const worker = async () => {
		while (!failed && next < count) {
			const index = next++;
			let succeeded = false;
			try {
				results[index] = await task(index);
				succeeded = true;
			} finally {
				if (!succeeded) failed = true;
			}
		}
	};
	const workers = Array.from({ length: Math.max(1, Math.min(limit, count)) }, worker);
	await Promise.all(workers);
	return results;
}
