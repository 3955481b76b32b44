import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { PageRequest, ServiceRun } from '../../transport';
import { serviceRequestPages } from '../../transport';
import { TOOL_PAGE_LIMIT, readOutput, shapeRecord } from '../output';
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
	/** What to tell when the list is empty from its start (an entity a connection must opt in to). */
	emptyHint?: string;
}

const FROM_AI = /\$from(AI|Ai|ai)\(/;

/** What a model reads after a page when the list goes on. */
function moreText(canContinue: boolean): string {
	return canContinue
		? 'More records follow: call again with the cursor set to nextCursor.'
		: "More records follow, but this tool cannot page: narrow the request, or have the workflow's author turn on Page at a Time and let the model set Cursor.";
}

/**
 * The one list body (every Get Many, Custom API Call's GET): Return All or Limit over the pager, the
 * records as output, or with Page at a Time one item with the batch and its next cursor. Called by a
 * model (as a tool), it always returns one page of at most TOOL_PAGE_LIMIT records and its cursor.
 */
export async function listBody(
	ctx: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
	{ limit, simplify, batch: asked }: ListParameters,
	call: ListCall,
): Promise<IDataObject[]> {
	// Simplify (in call.record) decides the form of a list; Output › Fields to Return still applies.
	const choice = readOutput(ctx, itemIndex, false);
	const maxRecords = choice.asTool ? Math.min(limit ?? TOOL_PAGE_LIMIT, TOOL_PAGE_LIMIT) : limit;
	const batch = choice.asTool ? (asked ?? { cursor: '', field: 'Cursor' }) : asked;
	const output: IDataObject[] = [];
	const { nextCursor } = await serviceRequestPages.call(
		ctx,
		itemIndex,
		{ ...call.page, maxRecords, batch },
		run,
		(records, page) => {
			if (call.rawPages && !simplify && !batch) output.push(page);
			else
				for (const record of records)
					output.push(shapeRecord(call.record(record, simplify), choice));
		},
	);
	// Empty from its start: the workflow's author sees a hint in the output pane, a model reads it.
	const hint = output.length === 0 && !batch?.cursor ? call.emptyHint : undefined;
	if (hint !== undefined && !choice.asTool)
		ctx.addExecutionHints({ message: hint, type: 'info', location: 'outputPane' });
	if (!batch) return output;
	const item = batchItem(call.batchKey, output, nextCursor);
	if (hint !== undefined && choice.asTool) item.hint = hint;
	if (choice.asTool && nextCursor !== undefined) {
		// The model can continue only when the author let it set the Cursor ($fromAI in it).
		const cursor = String(ctx.getNode().parameters.cursor ?? '');
		item.more = moreText(asked !== undefined && FROM_AI.test(cursor));
	}
	return [item];
}

export { readListParameters };
