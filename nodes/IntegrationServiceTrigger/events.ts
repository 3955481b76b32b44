import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { ENTITIES } from '../shared/catalogue';

/** The actions of every event kind, in the order an object's events are listed. */
const ACTIONS = ['Created', 'Updated', 'Deleted'] as const;

/** An event kind of the catalogue and what a user reads for it ("Person"). */
export interface EventObject {
	kind: string;
	label: string;
}

/** A word of a kind without its plural ending: "Properties" → "Property", "Teams" → "Team". */
const singular = (word: string): string =>
	word === 'People' ? 'Person' : word.replace(/ies$/, 'y').replace(/s$/, '');

/** A kind with no resource: "taskTemplates" → "Task Template". */
export function kindLabel(kind: string): string {
	const words = kind
		.replace(/([a-z])([A-Z])/g, '$1 $2')
		.split(' ')
		.map((word) => word.charAt(0).toUpperCase() + word.slice(1));
	words[words.length - 1] = singular(words[words.length - 1]);
	return words.join(' ');
}

/** The kinds with events, named as their resources: Person first, then A to Z. */
export const EVENT_OBJECTS: readonly EventObject[] = ENTITIES.filter((entity) => entity.events)
	.map((entity) => ({ kind: entity.kind, label: entity.resource?.label ?? kindLabel(entity.kind) }))
	.sort((a, b) =>
		a.kind === 'people' ? -1 : b.kind === 'people' ? 1 : a.label.localeCompare(b.label, 'en'),
	);

const ANY_EVENT: INodePropertyOptions = {
	name: 'Any Event',
	value: '*',
	description: 'Every event delivered to this trigger',
};

/** Versions 1 and 1.1: the wire names themselves, A to Z. */
const WIRE_NAME_OPTIONS: INodePropertyOptions[] = [
	ANY_EVENT,
	...EVENT_OBJECTS.flatMap(({ kind }) => ACTIONS.map((action) => `${kind}${action}`))
		.sort((a, b) => a.localeCompare(b))
		.map((name) => ({ name, value: name })),
];

/** From version 1.2: "Person Created"; the value stays the wire name. */
export const NAMED_EVENT_OPTIONS: INodePropertyOptions[] = [
	ANY_EVENT,
	...EVENT_OBJECTS.flatMap(({ kind, label }) =>
		ACTIONS.map((action) => ({
			name: `${label} ${action}`,
			value: `${kind}${action}`,
			description: `\`${kind}${action}\``,
		})),
	),
];

const EVENTS_DESCRIPTION =
	'The events that start the workflow. Deliveries of other events are acknowledged and start nothing.';

/**
 * One per version range under the same name, so a saved value reads the same. Not "Events": n8n's
 * node creator would make each option a trigger entry of its own.
 */
export const EVENTS_PROPERTIES: INodeProperties[] = [
	{
		displayName: 'Event Names',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: ['peopleCreated'],
		options: WIRE_NAME_OPTIONS,
		description: EVENTS_DESCRIPTION,
		displayOptions: { show: { '@version': [1, 1.1] } },
	},
	{
		displayName: 'Event Names',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: ['peopleCreated'],
		options: NAMED_EVENT_OPTIONS,
		description: EVENTS_DESCRIPTION,
		displayOptions: { show: { '@version': [1.2] } },
	},
];
