import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { ENTITIES, labelOf } from '../shared/catalogue';

/** The actions of every event kind, in the order an object's events are listed. */
const ACTIONS = ['Created', 'Updated', 'Deleted'] as const;

/** A kind with no resource, its last word singular: "taskTemplates" → "Task Template". */
export const kindLabel = (kind: string): string =>
	labelOf(kind).replace(/\w+$/, (last) =>
		last === 'People' ? 'Person' : last.replace(/ies$/, 'y').replace(/s$/, ''),
	);

/** The kinds with events, named as their resources: Person first, then A to Z. */
export const EVENT_OBJECTS: ReadonlyArray<{ kind: string; label: string }> = ENTITIES.filter(
	(entity) => entity.events,
)
	.map((entity) => ({ kind: entity.kind, label: entity.resource?.label ?? kindLabel(entity.kind) }))
	.sort((a, b) =>
		a.kind === 'people' ? -1 : b.kind === 'people' ? 1 : a.label.localeCompare(b.label, 'en'),
	);

/** From version 1.2: "Person Created"; the value stays the wire name. */
const NAMED_EVENTS: INodePropertyOptions[] = EVENT_OBJECTS.flatMap(({ kind, label }) =>
	ACTIONS.map((action) => ({
		name: `${label} ${action}`,
		value: `${kind}${action}`,
		description: `\`${kind}${action}\``,
	})),
);

/** Versions 1 and 1.1: the wire names themselves, A to Z. */
const WIRE_NAMES: INodePropertyOptions[] = NAMED_EVENTS.map(({ value }) => ({
	name: value as string,
	value,
})).sort((a, b) => a.name.localeCompare(b.name));

/**
 * One per version range under the same name, so a saved value reads the same. Not "Events": n8n's
 * node creator would make each option a trigger entry of its own.
 */
const eventNames = (versions: number[], options: INodePropertyOptions[]): INodeProperties => ({
	displayName: 'Event Names',
	name: 'events',
	type: 'multiOptions',
	required: true,
	default: ['peopleCreated'],
	options: [
		{ name: 'Any Event', value: '*', description: 'Every event delivered to this trigger' },
		...options,
	],
	description:
		'The events that start the workflow. Deliveries of other events are acknowledged and start nothing.',
	displayOptions: { show: { '@version': versions } },
});

export const EVENTS_PROPERTIES: INodeProperties[] = [
	eventNames([1, 1.1], WIRE_NAMES),
	eventNames([1.2], NAMED_EVENTS),
];
