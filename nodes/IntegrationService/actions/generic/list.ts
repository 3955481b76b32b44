import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { PageRequest, ServiceRun } from '../../transport';
import { serviceRequestPages } from '../../transport';
import { batchItem, readListParameters } from '../parameters';

export type ListParameters = ReturnType<typeof readListParameters>;

/** What differs between the lists that share the one list body. */
export interface ListCall {
	page: Omit<PageRequest, 'maxRecords' | 'batch'>;
	/** Key of the records in a Page at a Time item (e.g. "people"). */
	batchKey: string;
	/** One record as output; `simplify` is the item's Simplify. */
	record(record: IDataObject, simplify: boolean): IDataObject;
	/** Simplify off without Page at a Time outputs each page as the service sent it (Custom API Call). */
	rawPages?: boolean;
}

/**
 * The one list body (every Get Many, Custom API Call's GET): Return All or Limit over the pager, the
 * records as output, or with Page at a Time one item with the batch and its next cursor.
 */
export async function listBody(
	ctx: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
	{ limit, simplify, batch }: ListParameters,
	call: ListCall,
): Promise<IDataObject[]> {
	const output: IDataObject[] = [];
	const { nextCursor } = await serviceRequestPages.call(
		ctx,
		itemIndex,
		{ ...call.page, maxRecords: limit, batch },
		run,
		(records, page) => {
			if (call.rawPages && !simplify && !batch) output.push(page);
			else for (const record of records) output.push(call.record(record, simplify));
		},
	);
	return batch ? [batchItem(call.batchKey, output, nextCursor)] : output;
}

export { readListParameters };
