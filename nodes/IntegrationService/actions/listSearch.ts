import type {
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ResourceSpec } from '../../shared/catalogue';
import { RESOURCES, searchable } from '../../shared/catalogue';
import { searchMethodOf } from '../helpers/kinds/locator';
import { contactValues } from '../search/matchKeys';
import { readStep } from '../search/pages';
import type { RequestSettings, ServiceContext, ServiceRequest, ServiceRun } from '../transport';
import { DEFAULT_SETTINGS, MAX_PAGE_SIZE, newRun, redactRunError, startItem } from '../transport';
import { connectionOf as itemConnection } from './request';

/** The locators' list search: the service filters nothing, so a call reads pages and keeps the matches. */

/** Requests one search call sends at most, and the matches after which it answers. */
const SEARCH_PAGES = 5;
const ENOUGH = 50;

/** Someone waits at the dropdown: fewer attempts and shorter waits than a run's, one bound in all. */
const SEARCH_SETTINGS: RequestSettings = {
	...DEFAULT_SETTINGS,
	maxAttempts: 2,
	maxTotalWaitMs: 5_000,
	timeoutMs: 10_000,
	maxItemMs: 15_000,
};

const textOf = (value: unknown) =>
	typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';

/** The values of a contact list (`emails`, `phones`: `[{ value }]`) and of a plain text field. */
const contactsOf = (record: IDataObject, list: string, single: string) =>
	[...contactValues(record[list]), record[single]].map(textOf).filter((value) => value !== '');

/** What a record is called: a name, a person's names, a title or subject, a loan's number. */
function nameOf(record: IDataObject): string {
	const names = [textOf(record.firstName), textOf(record.lastName)].filter(Boolean).join(' ');
	const called = [record.name, names, record.title, record.subject, record.loanNumber];
	return called.map(textOf).find((text) => text !== '') ?? '';
}

/** Whether every typed word is in the record's name, emails, phones (digits alone too) or ID. */
function matches(words: string[], record: IDataObject, id: string): boolean {
	if (words.length === 0) return true;
	const phones = contactsOf(record, 'phones', 'phone');
	const text = [nameOf(record), ...contactsOf(record, 'emails', 'email'), ...phones, id]
		.join(' ')
		.toLowerCase();
	const digits = phones.map((phone) => phone.replace(/\D/g, '')).join(' ');
	return words.every((word) => {
		const wordDigits = word.replace(/\D/g, '');
		return text.includes(word) || (wordDigits.length > 2 && digits.includes(wordDigits));
	});
}

/** A record as an entry ("Ada Lovelace · ada@example.com", else "<Noun> <ID>"); none without an ID. */
function entryOf(resource: ResourceSpec, record: IDataObject): INodeListSearchItems | undefined {
	// A number past 2^53 lost digits when the answer was parsed: offered, it would name another record.
	if (typeof record.id === 'number' && !Number.isSafeInteger(record.id)) return undefined;
	const id = textOf(record.id);
	if (id === '') return undefined;
	const name = nameOf(record);
	const email = Array.isArray(record.emails) ? contactsOf(record, 'emails', 'email')[0] : '';
	const shown = [name, email].filter(Boolean).join(' · ');
	return { name: shown || `${resource.label} ${id}`, value: id };
}

const cannotRead = (ctx: Pick<ServiceContext, 'getNode'>, line: string) =>
	new NodeOperationError(ctx.getNode(), `The list could not be read: ${line}`);

/** The form's Connection ID, checked as a run checks it; the editor has no input items. */
function connectionOf(ctx: ILoadOptionsFunctions) {
	let unread: string | undefined;
	const getNodeParameter = (name: string, _itemIndex: number, fallback: unknown) => {
		try {
			return ctx.getNodeParameter(name, fallback);
		} catch (error) {
			unread = String((error as Error)?.message).split('\n')[0];
			throw cannotRead(ctx, unread);
		}
	};
	const form = { getNode: () => ctx.getNode(), getNodeParameter };
	try {
		return itemConnection(form as unknown as IExecuteFunctions, 0);
	} catch (error) {
		if (unread === undefined) throw cannotRead(ctx, (error as Error).message);
		const why = `Options cannot be worked out without input items (${unread})`;
		const instead = 'pick By ID, or set a fixed Connection ID to search';
		throw cannotRead(ctx, `${why}; where the Connection ID comes from the input items, ${instead}`);
	}
}

/** The start of a stack trace a service put in its error text: a JavaScript, Java or Python one. */
const STACK =
	/\s+at\s+(?:(?:async|new)\s+)?(?:[^\s()]+\s+)?\(?[^\s()]*(?:[/\\]|<anonymous>)[^\s()]*:\d+:\d+|\s+at\s+[\w$.<>]+\([\w$-]+\.\w+:\d+\)|\s*Traceback \(most recent call last\)/;
const MAX_LINE = 240;

/** A failure as one short line of the dropdown, without the credential's secrets or a service's stack. */
async function failure(ctx: ServiceContext, run: ServiceRun, error: unknown) {
	await redactRunError(ctx, run, 0, error);
	const message = (error as Error | undefined)?.message ?? String(error);
	const line = message.split('\n')[0].split(STACK)[0];
	return cannotRead(ctx, line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line);
}

/** Whether a failure is the search's own time limit, which the transport names when it gives up. */
const outOfTime = (run: ServiceRun, error: unknown) =>
	run.deadline !== undefined && String((error as Error)?.message).includes(run.deadline.bound);

/** The search of `resource`: records whose text holds the typed words, from where `token` says. */
const searchOf = (resource: ResourceSpec) =>
	async function (
		this: ILoadOptionsFunctions,
		filter = '',
		token = '',
	): Promise<INodeListSearchResult> {
		const run = startItem(newRun(SEARCH_SETTINGS), 'the search time limit of 15 s');
		const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
		const results: INodeListSearchItems[] = [];
		const request = {
			method: 'GET',
			host: resource.host,
			path: resource.path,
			connection: connectionOf(this),
		} as ServiceRequest;
		let cursor = token;
		let pages = 0;
		let pageLength: number | undefined;
		let kept = 0;
		try {
			// After the first call each asks for one page as long as the service's pages are.
			while (pages < SEARCH_PAGES && results.length < ENOUGH) {
				kept = results.length;
				const read = await readStep(this, 0, run, {
					request,
					pageSize: MAX_PAGE_SIZE,
					maxRecords: pageLength ?? MAX_PAGE_SIZE,
					recordsKey: resource.listKey as string,
					batch: { cursor, field: 'Search' },
				});
				pages += read.pages.length;
				pageLength ??= read.pages.find((page) => page.length > 0)?.length;
				for (const record of read.pages.flat()) {
					const entry = entryOf(resource, record);
					if (entry && matches(words, record, entry.value as string)) results.push(entry);
				}
				if (read.nextCursor === undefined) return { results };
				cursor = read.nextCursor;
			}
		} catch (error) {
			// Out of time after a call read its pages (the cursor moved): their matches, and the cursor.
			if (cursor !== token && outOfTime(run, error))
				return { results: results.slice(0, kept), paginationToken: cursor };
			throw await failure(this, run, error);
		}
		return { results, paginationToken: cursor };
	};

/** One search method per resource the catalogue lists, named as its locators name it. */
export const LIST_SEARCH = Object.fromEntries(
	RESOURCES.filter(searchable).map((resource) => [searchMethodOf(resource), searchOf(resource)]),
);
