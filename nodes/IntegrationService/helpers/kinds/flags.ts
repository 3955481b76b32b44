import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { SYNC_KINDS } from '../../../shared/catalogue';
import { inputError, refuseUnknownKeys } from '../validation';
import { toBoolean } from './boolean';
import type { Kind } from './kind';
import { compoundValue } from './kind';

/** A set of true/false flags as one collection: a flag not added is left out of the body. */

/** The channels of Communications Consent (spec 2.1). */
export const COMMUNICATION_CHANNELS = [
	'email',
	'call',
	'text',
	'massEmail',
	'postal',
	'visit',
] as const;

/** `massEmail` → `Mass Email`. */
export function flagLabel(key: string): string {
	return key.replace(/([A-Z])/g, ' $1').replace(/^./, (first) => first.toUpperCase());
}

function readFlags(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	raw: unknown,
	keys: readonly string[],
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
	if (typeof value !== 'object' || Array.isArray(value))
		throw inputError(ctx, itemIndex, field, 'must be an object of true/false flags');
	const flags: IDataObject = {};
	refuseUnknownKeys(ctx, itemIndex, field, value as IDataObject, keys);
	for (const [key, flag] of Object.entries(value as IDataObject)) {
		// A flag left null (a NULL column) or empty (blanks) is not set, like any optional field.
		if (flag === null || flag === undefined || (typeof flag === 'string' && flag.trim() === ''))
			continue;
		flags[key] = toBoolean(ctx, itemIndex, `${field} › ${flagLabel(key)}`, flag);
	}
	return flags;
}

function flagsKind(keys: readonly string[], flagDescription: (label: string) => string): Kind {
	const options: INodeProperties[] = keys
		.map((key) => ({
			displayName: flagLabel(key),
			name: key,
			type: 'boolean' as const,
			default: true,
			description: flagDescription(flagLabel(key).toLowerCase()),
		}))
		.sort((a, b) => a.displayName.localeCompare(b.displayName));
	return {
		property: (spec) => ({
			displayName: spec.label,
			name: spec.name,
			type: 'collection',
			placeholder: 'Add Flag',
			default: {},
			options,
			description: spec.description,
			...(spec.required ? { required: true } : {}),
		}),
		read: (at, spec, raw) =>
			compoundValue(at, spec, raw, 'flag', (given) =>
				readFlags(at.ctx, at.itemIndex, at.label, given, keys),
			),
		words: () => `object of true/false: ${options.map((option) => option.name).join(', ')}`,
	};
}

export const consent = flagsKind(
	COMMUNICATION_CHANNELS,
	(channel) => `Whether the person consents to be contacted by ${channel}`,
);

export const entitiesToSync = flagsKind(SYNC_KINDS, (kind) => `Whether to synchronise ${kind}`);
