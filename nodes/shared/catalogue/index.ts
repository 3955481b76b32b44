import { ENTITIES } from './entities';
import { SERVICE_RESOURCES } from './services';
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
