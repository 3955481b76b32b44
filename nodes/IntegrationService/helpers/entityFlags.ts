import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { inputError, toBoolean } from './validation';

/** The 27 entity kinds of spec 2.3, in the specification's order. */
export const ENTITY_KINDS = [
	'appointments',
	'borrowers',
	'calls',
	'calendars',
	'calendarEvents',
	'customFields',
	'events',
	'lists',
	'loans',
	'notes',
	'offices',
	'properties',
	'smartLists',
	'tasks',
	'taskTemplates',
	'teams',
	'textMessages',
	'emailMessages',
	'appointmentOutcomes',
	'appointmentTypes',
	'stages',
	'emailThreads',
	'documents',
	'sources',
	'timeframes',
	'peopleRelationships',
	'ponds',
] as const;

const COMMUNICATION_CHANNELS = ['email', 'call', 'text', 'massEmail', 'postal', 'visit'] as const;

function label(key: string): string {
	return key.replace(/([A-Z])/g, ' $1').replace(/^./, (first) => first.toUpperCase());
}

/**
 * A set of boolean flags as one collection: a flag the user adds is sent as its value (true or false),
 * a flag not added is left out of the body (its default is not shown, decisions.md).
 */
function flagsProperty(
	name: string,
	displayName: string,
	keys: readonly string[],
	flagDescription: (key: string) => string,
	overrides: Partial<INodeProperties>,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'collection',
		placeholder: 'Add Flag',
		default: {},
		options: keys
			.map((key) => ({
				displayName: label(key),
				name: key,
				type: 'boolean' as const,
				default: true,
				description: flagDescription(key),
			}))
			.sort((a, b) => a.displayName.localeCompare(b.displayName)),
		...overrides,
	};
}

export function entitiesToSyncProperty(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return flagsProperty(
		'entitiesToSync',
		'Entities to Sync',
		ENTITY_KINDS,
		(key) => `Whether to synchronise ${label(key).toLowerCase()}`,
		{
			description:
				'Which kinds of records to synchronise. Add a flag and switch it on (sync) or off (do not sync); flags you do not add are not sent.',
			...overrides,
		},
	);
}

export function communicationsConsentProperty(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return flagsProperty(
		'communicationsConsent',
		'Communications Consent',
		COMMUNICATION_CHANNELS,
		(key) => `Whether the person consents to be contacted by ${label(key).toLowerCase()}`,
		{
			description: 'Consent per channel; channels you do not add are not sent',
			...overrides,
		},
	);
}

/**
 * Flags given by the form (an object of booleans) or by an expression or input field (an object, or its
 * JSON text); an unknown key is an error rather than a silently dropped flag.
 */
function toFlags(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	keys: readonly string[],
	raw: unknown,
): IDataObject {
	let value = raw;
	if (typeof value === 'string') {
		try {
			value = JSON.parse(value);
		} catch {
			throw inputError(ctx, itemIndex, field, 'must be an object of true/false flags');
		}
	}
	if (value === undefined || value === null) return {};
	if (typeof value !== 'object' || Array.isArray(value)) {
		throw inputError(ctx, itemIndex, field, 'must be an object of true/false flags');
	}
	const flags: IDataObject = {};
	for (const [key, flag] of Object.entries(value as IDataObject)) {
		if (!keys.includes(key)) {
			throw inputError(ctx, itemIndex, field, `"${key}" is not one of: ${keys.join(', ')}`);
		}
		// A flag left null (a NULL column) is not set, like a field left out.
		if (flag === null || flag === undefined) continue;
		flags[key] = toBoolean(ctx, itemIndex, `${field} › ${label(key)}`, flag);
	}
	return flags;
}

export function toEntitiesToSync(ctx: IExecuteFunctions, itemIndex: number, field: string, raw: unknown): IDataObject {
	return toFlags(ctx, itemIndex, field, ENTITY_KINDS, raw);
}

export function toCommunicationsConsent(ctx: IExecuteFunctions, itemIndex: number, field: string, raw: unknown): IDataObject {
	return toFlags(ctx, itemIndex, field, COMMUNICATION_CHANNELS, raw);
}
