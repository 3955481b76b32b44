import { ENTITIES } from './entities';
import { SERVICE_RESOURCES } from './services';
import type { IDataObject } from 'n8n-workflow';

import type { ServiceHost } from '../service';
import { SECTIONS, type ResourceSpec } from './types';

/** One catalogue (decisions.md): all the node, trigger and credential list about entities follows from it. */
export * from './types';
export { fieldsFor, labelOf, RECORD_KEYS } from './entry';
export { ENTITIES };

/** The node's resources in the Resource option's order: by section, within a section by label. */
export const RESOURCES: readonly ResourceSpec[] = [
	...ENTITIES.flatMap((entity) => (entity.resource ? [entity.resource] : [])),
	...SERVICE_RESOURCES,
].sort(
	(a, b) =>
		SECTIONS.indexOf(a.section) - SECTIONS.indexOf(b.section) ||
		a.label.localeCompare(b.label, 'en'),
);

/** The credential's Entities to Sync flags. */
export const SYNC_KINDS: readonly string[] = ENTITIES.filter((entity) => entity.syncFlag).map(
	(entity) => entity.kind,
);

/** The kinds whose events the CRM host's `POST /api/webhooks` registers: those it publishes records of. */
export const CRM_EVENT_KINDS: readonly string[] = ENTITIES.filter(
	(entity) => entity.events && entity.resource?.host === 'crm',
).map((entity) => entity.kind);

/** The list keys of the entities the node offers, people first: an answer that is only one of them is a page. */
export const LIST_KEYS: readonly string[] = ENTITIES.flatMap((entity) =>
	entity.resource?.listKey ? [entity.resource.listKey] : [],
);

export function resourceSpec(value: string): ResourceSpec | undefined {
	return RESOURCES.find((resource) => resource.value === value);
}

/** Resources whose requests may carry a Connection ID: every one but those only on the universal host. */
export const CONNECTION_RESOURCES: readonly string[] = RESOURCES.filter(
	(resource) => resource.host !== 'universal',
).map((resource) => resource.value);

/** A resource listed on a connected system's host: a locator can search it, the Changes Trigger watch it. */
export type ListedResource = ResourceSpec & {
	host: Exclude<ServiceHost, 'universal'>;
	listKey: string;
};

export function searchable(resource: ResourceSpec): resource is ListedResource {
	const lists = resource.operations.includes('getAll') && resource.listKey !== undefined;
	return lists && resource.host !== 'universal' && resource.host !== 'chosen';
}

/** An answer's records: a page's (it has `_metadata`, the list the path names, or only a catalogue list); else the answer is one. */
export function recordsOf(
	answer: IDataObject,
	listName?: string,
): IDataObject[] | IDataObject | null {
	const keys = Object.keys(answer);
	if (keys.length === 0) return [];
	const lists = keys.filter((key) => key !== '_metadata' && Array.isArray(answer[key]));
	// A page that names its list and lacks every list is no page of records: the pager says "no list".
	const meta = answer._metadata as IDataObject | undefined;
	const collection = meta?.collection;
	if (typeof collection === 'string' && collection !== '_metadata') {
		if (Array.isArray(answer[collection])) return answer[collection] as IDataObject[];
		if (lists.length === 0) return null;
	}
	const named = listName !== undefined && Array.isArray(answer[listName]);
	const onlyKnown = keys.length === 1 && LIST_KEYS.includes(keys[0]) && lists.length === 1;
	if (!(meta !== undefined || named || onlyKnown)) return answer;
	if (named) return answer[listName as string] as IDataObject[];
	const key = LIST_KEYS.find((known) => Array.isArray(answer[known])) ?? lists[0];
	return key === undefined ? [] : (answer[key] as IDataObject[]);
}
