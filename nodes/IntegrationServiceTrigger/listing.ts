import type { IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	CREDENTIAL_DEFAULT,
	MAX_PAGE_SIZE,
	serviceRequestPages,
	type ServiceRun,
} from '../IntegrationService/transport';
import { isJsonObject } from '../shared/service';

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
	const request = {
		method: 'GET',
		host: 'crm',
		path: ['webhooks'],
		connection: CREDENTIAL_DEFAULT,
	} as const;
	const paging = { request, pageSize: MAX_PAGE_SIZE, recordsKey: 'webhooks' };
	await serviceRequestPages.call(ctx, 0, paging, run, (page) => {
		for (const webhook of page as unknown[]) {
			if (!isJsonObject(webhook)) continue;
			const { id, event, url } = webhook;
			const read = webhookIdOf(id);
			if (read !== undefined) listing.push({ id: read, event, url });
			else if (typeof id === 'number' && Number.isFinite(id))
				listing.push({ id: String(id), event, url, lossy: true });
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
