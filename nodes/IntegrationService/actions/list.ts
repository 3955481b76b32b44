import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { describeValue, isJsonObject } from '../../shared/service';
import { toBoolean } from '../helpers/kinds/boolean';
import { toWholeNumber } from '../helpers/kinds/number';
import { optionalText } from '../helpers/kinds/text';
import { inputError } from '../helpers/validation';
import type { SimpleKey } from '../../shared/catalogue';
import type { PageRequest, ServiceRun } from '../transport';
import { MAX_RECORDS, serviceRequestPages } from '../transport';
import { readStep } from '../search/pages';
import { TOOL_PAGE_LIMIT, readOutput, shapeRecord } from './output';
import { picked } from './request';
import { FORM_VERSION, FROM_VERSION_2 } from './settings';

/** The cursor a model passes back (version 2): a parameter of the Tool variant only, `$fromAI` by default. */
const FROM_AI = /\$from(AI|Ai|ai)\(/;

export const toolCursorProperty: INodeProperties = {
	displayName: 'Cursor',
	name: 'toolCursor',
	type: 'string',
	default:
		"={{ $fromAI('cursor', 'Leave empty for the first page. To read further, pass the nextCursor of the previous answer; when done is true there is nothing more', 'string', '') }}",
	description:
		'Where the page a model reads starts: the nextCursor of its previous call. By default the model fills it; a fixed value always reads the same page.',
	displayOptions: { show: { ...FROM_VERSION_2, '@tool': [true], pageAtATime: [false] } },
};

/** The Cursor (`cursor`, or the Tool variant's `toolCursor`): the text of a nextCursor. */
function readCursor(ctx: IExecuteFunctions, itemIndex: number, name: string): string {
	const cursor = ctx.getNodeParameter(name, itemIndex, '') ?? '';
	if (typeof cursor === 'string') return cursor.trim();
	const problem = `must be the text of a nextCursor, got ${describeValue(cursor)}`;
	throw inputError(ctx, itemIndex, 'Cursor', problem);
}

/** Whether the parameter the list reads the cursor from asks the model (`$fromAI`). */
function modelSetsCursor(ctx: IExecuteFunctions, pageAtATime: boolean): boolean {
	const parameters = ctx.getNode().parameters;
	const cursor = pageAtATime ? parameters.cursor : parameters[toolCursorProperty.name];
	return FROM_AI.test(String(cursor ?? ''));
}

/** What a list (every Get Many, Custom API Call's GET) is: the request and how its records come out. */
export interface ListCall {
	page: Omit<PageRequest, 'maxRecords' | 'batch'>;
	/** Key of the records in a Page at a Time item (e.g. "people"). */
	batchKey: string;
	/** `simplify`: take `original` out (Simplify, but for `simple` lists). */
	record(record: IDataObject, simplify: boolean): IDataObject;
	simple?: readonly SimpleKey[];
	/** Simplify off without Page at a Time outputs each page as sent (Custom API Call). */
	rawPages?: boolean;
	/** Told when the list is empty from its start (an entity a connection must opt in to). */
	emptyHint?: string;
	/** Filters: a Limit counts only the records kept. */
	keep?(record: IDataObject): boolean;
}

const flag = (
	ctx: IExecuteFunctions,
	itemIndex: number,
	label: string,
	name: string,
	fallback: boolean,
) => toBoolean(ctx, itemIndex, label, ctx.getNodeParameter(name, itemIndex, fallback));

/** The records, or with Page at a Time one item with the batch; a model always gets one page. */
export async function listBody(
	ctx: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
	call: ListCall,
): Promise<IDataObject[]> {
	const returnAll = flag(ctx, itemIndex, 'Return All', 'returnAll', false);
	const limit = returnAll
		? undefined
		: toWholeNumber(ctx, itemIndex, 'Limit', ctx.getNodeParameter('limit', itemIndex, 50), 1);
	const simplify = flag(ctx, itemIndex, 'Simplify', 'simplify', true);
	const paged = !returnAll && flag(ctx, itemIndex, 'Page at a Time', 'pageAtATime', false);
	const asked = paged
		? { cursor: readCursor(ctx, itemIndex, 'cursor'), field: 'Cursor' }
		: undefined;
	// At version 2 Simplify is the entity's simple form; else it takes `original` out (call.record).
	const simple = call.simple && ctx.getNode().typeVersion >= FORM_VERSION ? call.simple : undefined;
	const choice = readOutput(ctx, itemIndex, simple ? simplify : false, simple);
	const maxRecords = choice.asTool ? Math.min(limit ?? TOOL_PAGE_LIMIT, TOOL_PAGE_LIMIT) : limit;
	// A model reads one page: from the Cursor with Page at a Time, else (version 2) from its own.
	const fromModel = () =>
		ctx.getNode().typeVersion >= FORM_VERSION ? readCursor(ctx, itemIndex, 'toolCursor') : '';
	const batch = choice.asTool ? (asked ?? { cursor: fromModel(), field: 'Cursor' }) : asked;
	const output: IDataObject[] = [];
	const onRecords = (records: IDataObject[]) => {
		for (const record of records)
			output.push(shapeRecord(call.record(record, simplify && !simple), choice));
	};
	const { keep } = call;
	const pages = { ...call.page, maxRecords, batch };
	const { nextCursor } = keep
		? await filteredPages(ctx, itemIndex, run, pages, keep, onRecords)
		: await serviceRequestPages.call(ctx, itemIndex, pages, run, (records, page) => {
				if (call.rawPages && !simplify && !batch) output.push(page);
				else onRecords(records);
			});
	const hint = output.length === 0 && !batch?.cursor ? call.emptyHint : undefined;
	if (hint !== undefined && !choice.asTool)
		ctx.addExecutionHints({ message: hint, type: 'info', location: 'outputPane' });
	if (!batch) return output;
	// Where the next batch starts: '' and done at the end.
	const item: IDataObject = {
		[call.batchKey]: output,
		count: output.length,
		nextCursor: nextCursor ?? '',
		done: nextCursor === undefined,
	};
	if (hint !== undefined && choice.asTool) item.hint = hint;
	// The model can continue only when it sets the cursor ($fromAI in it).
	if (choice.asTool && nextCursor !== undefined)
		item.more = modelSetsCursor(ctx, asked !== undefined)
			? 'More records follow: call again with the cursor set to nextCursor.'
			: "More records follow, but this tool cannot page: narrow the request, or have the workflow's author turn on Page at a Time and let the model set Cursor.";
	return [item];
}

/**
 * The service filters nothing: pages are checked here one per step, so reading stops at the Limit.
 * A batch ending inside a page reads it again up to its last record kept, for the next cursor.
 */
async function filteredPages(
	ctx: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
	page: PageRequest,
	keep: (record: IDataObject) => boolean,
	onRecords: (records: IDataObject[]) => void,
): Promise<{ nextCursor?: string }> {
	const { maxRecords: limit, batch } = page;
	const field = batch?.field ?? 'Cursor';
	let cursor = batch?.cursor ?? '';
	let kept = 0;
	let size = page.pageSize;
	const step = async (from: string, maxRecords: number) =>
		await readStep(ctx, itemIndex, run, { ...page, maxRecords, batch: { cursor: from, field } });
	for (;;) {
		const { pages, nextCursor } = await step(cursor, size);
		const records = pages.flat();
		// A step that began inside a page read its rest and the start of the next: the next step
		// reads only the rest of that one, so each later step is one request again.
		size =
			pages.length > 1
				? Math.max(1, page.pageSize - pages[pages.length - 1].length)
				: page.pageSize;
		// The records kept up to the Limit, and how many records that took.
		const taken: IDataObject[] = [];
		let used = 0;
		for (const record of records) {
			if (kept + taken.length === limit) break;
			used += 1;
			if (keep(record)) taken.push(record);
		}
		kept += taken.length;
		if (limit === undefined && kept > MAX_RECORDS) {
			const message = `Paging stopped: more than ${MAX_RECORDS} records meet the Filters, more than would be held in memory at once; use a Limit or Page at a Time`;
			throw new NodeOperationError(ctx.getNode(), message, { itemIndex });
		}
		onRecords(taken);
		if (kept === limit) {
			if (!batch || used === records.length) return { nextCursor };
			return { nextCursor: (await step(cursor, used)).nextCursor };
		}
		if (nextCursor === undefined) return {};
		cursor = nextCursor;
	}
}

/** Names n8n's HTTP client drops from the URL without a word: refused, never dropped. */
const UNSENDABLE_NAMES = ['__proto__', 'constructor', 'prototype'];

export function readQueryParameters(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	raw: unknown,
	reserved: readonly string[] = [],
): IDataObject {
	if (raw === undefined || raw === null || raw === '') return {};
	const entries = Array.isArray(raw) ? raw : ((raw as IDataObject).parameters ?? []);
	if (!Array.isArray(entries))
		throw inputError(ctx, itemIndex, field, 'must be a list of {name, value} entries');
	const query: IDataObject = {};
	entries.forEach((entry: unknown, position) => {
		const where = `${field} › entry ${position + 1}`;
		if (!isJsonObject(entry))
			throw inputError(ctx, itemIndex, where, 'must be an object with a name and a value');
		const { name: rawName, value } = entry as IDataObject;
		const name = typeof rawName === 'string' ? rawName.trim() : '';
		if (name === '') throw inputError(ctx, itemIndex, where, 'has no name');
		const label = `${field} › ${name}`;
		const refuse = (problem: string) => inputError(ctx, itemIndex, label, problem);
		if (UNSENDABLE_NAMES.includes(name))
			throw refuse(
				`cannot be sent: n8n's HTTP client leaves ${UNSENDABLE_NAMES.join(', ')} out of the URL`,
			);
		if (reserved.includes(name.toLowerCase()))
			throw refuse(
				`cannot be set here: paging sets ${reserved.join(', ')} itself (use Return All, Limit and Page Size instead)`,
			);
		if (Object.prototype.hasOwnProperty.call(query, name)) throw refuse('appears more than once');
		if (value === undefined || value === null || value === '') throw refuse('has no value');
		// Text as the form's: an object, a list or a number that lost digits is refused.
		query[name] = optionalText(ctx, itemIndex, label, value) as string;
	});
	return query;
}

/** A record without its bulky `original`. */
export const withoutOriginal = (record: IDataObject) => picked(record, (key) => key !== 'original');
