import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PageRequest, ServiceRun } from '../transport';
import { MAX_RECORDS, serviceRequestPages } from '../transport';

export interface FilteredList {
	page: Omit<PageRequest, 'maxRecords' | 'batch'>;
	keep(record: IDataObject): boolean;
	/** Undefined: every one. */
	limit?: number;
	batch?: { cursor: string; field: string };
}

/**
 * The service filters nothing: each page is checked here, one page per step, so reading stops once
 * the Limit is met. A batch ending inside a page reads that page again up to its last record kept,
 * so the next batch's cursor starts right after it.
 */
export async function filteredPages(
	ctx: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
	list: FilteredList,
	onRecords: (records: IDataObject[]) => void,
): Promise<{ nextCursor?: string }> {
	const { page, keep, limit, batch } = list;
	const field = batch?.field ?? 'Cursor';
	let cursor = batch?.cursor ?? '';
	let kept = 0;
	let size = page.pageSize;
	const step = async (from: string, maxRecords: number, pages: IDataObject[][]) =>
		await serviceRequestPages.call(
			ctx,
			itemIndex,
			{ ...page, maxRecords, batch: { cursor: from, field } },
			run,
			(records) => pages.push(records),
		);
	for (;;) {
		const pages: IDataObject[][] = [];
		const { nextCursor } = await step(cursor, size, pages);
		const records = pages.flat();
		// A step that began inside a page read its rest and the start of the next: the next step
		// reads only the rest of that one, so each later step is one request again.
		size =
			pages.length > 1
				? Math.max(1, page.pageSize - pages[pages.length - 1].length)
				: page.pageSize;
		const wanted = limit === undefined ? Infinity : limit - kept;
		const { taken, used } = keptOf(records, keep, wanted);
		kept += taken.length;
		if (limit === undefined && kept > MAX_RECORDS) {
			const message = `Paging stopped: more than ${MAX_RECORDS} records meet the Filters, more than would be held in memory at once; use a Limit or Page at a Time`;
			throw new NodeOperationError(ctx.getNode(), message, { itemIndex });
		}
		onRecords(taken);
		if (kept === limit) {
			if (!batch || used === records.length) return { nextCursor };
			return { nextCursor: (await step(cursor, used, [])).nextCursor };
		}
		if (nextCursor === undefined) return {};
		cursor = nextCursor;
	}
}

/** The records kept, up to `wanted`, and how many records that took. */
function keptOf(
	records: IDataObject[],
	keep: (record: IDataObject) => boolean,
	wanted: number,
): { taken: IDataObject[]; used: number } {
	const taken: IDataObject[] = [];
	for (const [at, record] of records.entries()) {
		if (!keep(record)) continue;
		taken.push(record);
		if (taken.length >= wanted) return { taken, used: at + 1 };
	}
	return { taken, used: records.length };
}
