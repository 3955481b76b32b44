import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	CREDENTIAL_DEFAULT,
	MAX_PAGE_SIZE,
	serviceRequestPages,
	type ServiceRun,
} from '../IntegrationService/transport';

/** More webhooks than this on one connection is no real listing: activation stops, naming it. */
export const MAX_LISTED_WEBHOOKS = 10_000;

export interface Listed {
	id: string;
	event: string;
	url: string;
}

/** A listed ID; `lossy`: a number past 2^53 that lost digits, so it may be any ID that reads as it. */
interface Held {
	id: string;
	url: unknown;
	lossy?: boolean;
}

/** The entries readable enough to be ours; and every entry with an ID, its `url` as given (or none). */
export interface Listing {
	readable: Listed[];
	held: Held[];
}

/** Whether a listed entry has this ID (a lossy one: any ID that reads as the same number). */
export const holds = (held: Held, id: string): boolean =>
	held.id === id || (held.lossy === true && Number(id) === Number(held.id));

/** A webhook ID as the CRM host writes it: non-empty text, or a whole number as its decimal text. */
export function webhookIdOf(value: unknown): string | undefined {
	if (typeof value === 'string') return value.trim() === '' ? undefined : value;
	return typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : undefined;
}

/** Every page of the CRM host's webhooks; an entry with no event or URL cannot be ours, its ID is still held. */
export async function listWebhooks(ctx: IHookFunctions, run: ServiceRun): Promise<Listing> {
	const listing: Listing = { readable: [], held: [] };
	await serviceRequestPages.call(
		ctx,
		0,
		{
			request: { method: 'GET', host: 'crm', path: ['webhooks'], connection: CREDENTIAL_DEFAULT },
			pageSize: MAX_PAGE_SIZE,
			recordsKey: 'webhooks',
		},
		run,
		(page) => {
			for (const webhook of page as unknown[]) {
				if (webhook === null || typeof webhook !== 'object' || Array.isArray(webhook)) continue;
				const { id, event, url } = webhook as IDataObject;
				const read = webhookIdOf(id);
				if (read === undefined) {
					if (typeof id === 'number' && Number.isFinite(id))
						listing.held.push({ id: String(id), url, lossy: true });
					continue;
				}
				listing.held.push({ id: read, url });
				if (typeof event === 'string' && typeof url === 'string')
					listing.readable.push({ id: read, event, url });
			}
			if (listing.held.length > MAX_LISTED_WEBHOOKS) {
				throw new NodeOperationError(
					ctx.getNode(),
					`The CRM host listed more than ${MAX_LISTED_WEBHOOKS} webhooks; the trigger's own cannot be told apart`,
				);
			}
		},
	);
	return listing;
}
