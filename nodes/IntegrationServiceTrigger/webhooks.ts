import type { IHookFunctions } from 'n8n-workflow';
import { ApplicationError, NodeOperationError } from 'n8n-workflow';

import {
	CREDENTIAL_DEFAULT,
	DEFAULT_SETTINGS,
	MAX_PAGE_SIZE,
	newRun,
	serviceRequest,
	serviceRequestPages,
	startItem,
	type ServiceRun,
} from '../IntegrationService/transport';
import { CRM_EVENT_KINDS } from '../shared/catalogue';
import { isJsonObject } from '../shared/service';
import { filtersOf } from './filters';

/** Registering waits for nobody but the user who activates: bounded, and fewer retries than an action. */
const HOOK_MS = 60_000;
const hookRun = (): ServiceRun =>
	startItem(
		newRun({ ...DEFAULT_SETTINGS, maxAttempts: 3, maxTotalWaitMs: 20_000, maxItemMs: HOOK_MS }),
		`the ${HOOK_MS / 1000} s limit for the trigger's webhooks`,
	);

/** The CRM host's webhooks, on the credential's own connection. */
const WEBHOOKS = { host: 'crm', path: ['webhooks'], connection: CREDENTIAL_DEFAULT } as const;

/** More webhooks than this on one connection is no real listing: activation stops, naming it. */
const MAX_LISTED_WEBHOOKS = 10_000;

/** A listed webhook as given; `lossy`: an ID past 2^53 that lost digits, so it may be any ID that reads as it. */
export interface Listed {
	id: string;
	event: unknown;
	url: unknown;
	lossy?: boolean;
}

/** Whether a listed entry has this ID (a lossy one: any ID that reads as the same number). */
export const holds = (listed: Listed, id: string): boolean =>
	listed.id === id || (listed.lossy === true && Number(id) === Number(listed.id));

/** Whether the entry is a webhook for this event at this URL, by an exact ID. */
export const pointsAt = (listed: Listed, url: string, event: string): boolean =>
	listed.lossy !== true && listed.url === url && listed.event === event;

/** A webhook ID as the CRM host writes it: non-empty text, or a whole number as its decimal text. */
export function webhookIdOf(value: unknown): string | undefined {
	if (typeof value === 'string') return value.trim() === '' ? undefined : value;
	return typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : undefined;
}

/** Every page of the CRM host's webhooks with an ID; an entry without event or URL is still held. */
export async function listWebhooks(ctx: IHookFunctions, run: ServiceRun): Promise<Listed[]> {
	const listing: Listed[] = [];
	const request = { ...WEBHOOKS, method: 'GET' } as const;
	const paging = { request, pageSize: MAX_PAGE_SIZE, recordsKey: 'webhooks' };
	await serviceRequestPages.call(ctx, 0, paging, run, (page) => {
		for (const webhook of page as unknown[]) {
			if (!isJsonObject(webhook)) continue;
			const { id, event, url } = webhook;
			const lossy = typeof id === 'number' && Number.isFinite(id) && !Number.isSafeInteger(id);
			const read = lossy ? String(id) : webhookIdOf(id);
			if (read !== undefined) listing.push({ id: read, event, url, lossy });
		}
		if (listing.length > MAX_LISTED_WEBHOOKS) {
			throw new NodeOperationError(
				ctx.getNode(),
				`The CRM host listed more than ${MAX_LISTED_WEBHOOKS} webhooks; the trigger's own cannot be told apart`,
			);
		}
	});
	return listing;
}

/** A test listen keeps its own IDs, so its registration never takes the production one's place. */
const keyOf = (ctx: IHookFunctions): string =>
	ctx.getMode() === 'manual' ? 'crmTestWebhooks' : 'crmWebhooks';

/** The webhooks this trigger created, by event, as kept in the node's static data. */
function owned(ctx: IHookFunctions): Record<string, string> {
	const kept = ctx.getWorkflowStaticData('node')[keyOf(ctx)];
	if (!isJsonObject(kept)) return {};
	return Object.fromEntries(
		Object.entries(kept).filter(([, id]) => typeof id === 'string'),
	) as Record<string, string>;
}

/** Assigned anew, so that n8n sees the static data changed and saves it. */
function keep(ctx: IHookFunctions, webhooks: Record<string, string>): void {
	ctx.getWorkflowStaticData('node')[keyOf(ctx)] = { ...webhooks };
}

/** The selected events the CRM host registers (the catalogue's CRM kinds); not Any Event (a webhook holds one). */
function crmEvents(ctx: IHookFunctions): string[] {
	const events = ctx.getNodeParameter('events', []) as string[];
	if (events.includes('*')) {
		throw new NodeOperationError(
			ctx.getNode(),
			'Create and Delete Webhooks needs the events listed, not Any Event',
			{
				description:
					'A webhook of the service holds one event name. Select the events, or turn Create and Delete Webhooks off and point webhooks at this trigger yourself.',
			},
		);
	}
	const kind = (event: string) => /^(.+)(?:Created|Updated|Deleted)$/.exec(event)?.[1] ?? '';
	return [...new Set(events.filter((event) => CRM_EVENT_KINDS.includes(kind(event))))];
}

/** This trigger's URL: the production URL on activation, the test URL while listening for a test event. */
function ownUrl(ctx: IHookFunctions): string {
	const url = ctx.getNodeWebhookUrl('default');
	if (!url) throw new NodeOperationError(ctx.getNode(), 'n8n gave no URL for this trigger');
	return url;
}

/** Every selected event has a webhook here; one created that no longer points here is forgotten. */
export async function webhooksExist(ctx: IHookFunctions): Promise<boolean> {
	const events = crmEvents(ctx);
	const mine = owned(ctx);
	if (events.length === 0 && Object.keys(mine).length === 0) return true;
	const url = ownUrl(ctx);
	const listed = await listWebhooks(ctx, hookRun());
	const still = Object.entries(mine).filter(([event, id]) =>
		listed.some((w) => w.id === id && pointsAt(w, url, event)),
	);
	if (still.length !== Object.keys(mine).length) keep(ctx, Object.fromEntries(still));
	return events.every((event) => listed.some((w) => pointsAt(w, url, event)));
}

/** On a failure what this call created is deleted again, and the error says what could not be. */
export async function createWebhooks(ctx: IHookFunctions): Promise<void> {
	const wanted = crmEvents(ctx);
	const url = ownUrl(ctx);
	const filters = filtersOf(ctx);
	const run = hookRun();
	const before = await listWebhooks(ctx, run);
	const events = wanted.filter((event) => !before.some((w) => pointsAt(w, url, event)));
	const made: Record<string, string> = {};
	try {
		for (const event of events) {
			const body = { url, event, ...filters };
			const answer = await serviceRequest.call(ctx, 0, { ...WEBHOOKS, method: 'POST', body }, run);
			const id = webhookIdOf(answer.id);
			if (id === undefined)
				throw new ApplicationError(`The CRM host answered no webhook ID for ${event}`);
			// An ID the first listing held elsewhere is another integration's: deactivation would delete it.
			if (before.some((w) => holds(w, id) && w.url !== url))
				throw new ApplicationError(
					`The CRM host answered the create for ${event} with webhook ID ${id}, which it had listed at another URL before: another integration's webhook, which the trigger does not take or delete`,
				);
			made[event] = id;
		}
	} catch (error) {
		// The event whose create failed: the CRM host may have made one we have no ID of.
		const pending = events.find((event) => !(event in made)) as string;
		const undone = await undoCreate(ctx, url, before, Object.values(made), pending);
		throw new NodeOperationError(
			ctx.getNode(),
			`Could not create the trigger's webhooks on the CRM host: ${(error as Error).message}`,
			{ description: undone },
		);
	}
	keep(ctx, { ...owned(ctx), ...made });
}

/** Deletes the IDs the creates returned and, for the create that failed, what is new at our URL for its event; says what it did. */
async function undoCreate(
	ctx: IHookFunctions,
	url: string,
	before: Listed[],
	ids: string[],
	pending: string,
): Promise<string> {
	const run = hookRun();
	let unchecked = false;
	try {
		for (const w of await listWebhooks(ctx, run)) {
			const isNew = !before.some((b) => holds(b, w.id)) && !ids.includes(w.id);
			if (isNew && pointsAt(w, url, pending)) ids.push(w.id);
		}
	} catch {
		unchecked = true; // Listing failed too: delete what is known, and say what could not be checked.
	}
	const left = await deleteIds(ctx, ids, run);
	const deleted = ids.length - left.length;
	if (left.length > 0)
		return `These webhooks it created could not be deleted again; delete them on the CRM host: ${left.join(', ')}`;
	if (unchecked)
		return `The CRM host could not be listed to find a webhook the failed create for ${pending} may have made (${deleted} deleted again); check its webhooks`;
	return deleted > 0
		? `The ${deleted} webhook(s) it had created were deleted again: nothing is left registered`
		: 'Nothing was registered';
}

/** Deletes each ID (one already gone counts as deleted); returns those that could not be deleted. */
async function deleteIds(ctx: IHookFunctions, ids: string[], run: ServiceRun): Promise<string[]> {
	const left: string[] = [];
	for (const id of ids) {
		const path = ['webhooks', { id, field: 'Webhook ID' }];
		try {
			await serviceRequest.call(ctx, 0, { ...WEBHOOKS, method: 'DELETE', path }, run);
		} catch (error) {
			if ((error as { httpCode?: string }).httpCode !== '404') left.push(id);
		}
	}
	return left;
}

/** Deletes exactly the webhooks this trigger created; one that cannot be deleted stays kept, for the next try. */
export async function deleteWebhooks(ctx: IHookFunctions): Promise<void> {
	const mine = owned(ctx);
	const left = await deleteIds(ctx, Object.values(mine), hookRun());
	keep(ctx, Object.fromEntries(Object.entries(mine).filter(([, id]) => left.includes(id))));
	if (left.length > 0) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Could not delete the trigger's webhooks ${left.join(', ')} on the CRM host`,
			{
				description:
					'They are kept and tried again on the next deactivation; or delete them on the CRM host.',
			},
		);
	}
}
