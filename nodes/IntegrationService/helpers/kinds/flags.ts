import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { labelOf, SYNC_KINDS } from '../../../shared/catalogue';
import { isJsonObject, jsonOf } from '../../../shared/service';
import type { Reading } from '../validation';
import { inputError, refuseUnknownKeys } from '../validation';
import { toBoolean } from './boolean';
import type { Kind } from './kind';
import { compoundValue, isUnsetValue } from './kind';

/** A set of true/false flags as one collection: a flag not added is left out of the body. */

/** The channels of Communications Consent (spec 2.1). */
const CHANNELS = ['email', 'call', 'text', 'massEmail', 'postal', 'visit'] as const;

function readFlags(at: Reading, raw: unknown, keys: readonly string[]) {
	const { ctx, itemIndex, label } = at;
	const read = typeof raw === 'string' ? jsonOf(raw) : { value: raw };
	const value = 'value' in read ? read.value : raw; // Text that is not JSON is refused below.
	if (value === undefined || value === null) return {};
	if (!isJsonObject(value))
		throw inputError(ctx, itemIndex, label, 'must be an object of true/false flags');
	const flags: IDataObject = {};
	refuseUnknownKeys(at, value as IDataObject, keys);
	for (const [key, flag] of Object.entries(value as IDataObject)) {
		// A flag left null (a NULL column) or empty (blanks) is not set, like any optional field.
		if (isUnsetValue(flag)) continue;
		flags[key] = toBoolean(ctx, itemIndex, `${label} › ${labelOf(key)}`, flag);
	}
	return flags;
}

function flagsKind(keys: readonly string[], flagDescription: (label: string) => string): Kind {
	const options: INodeProperties[] = keys
		.map((key) => ({
			displayName: labelOf(key),
			name: key,
			type: 'boolean' as const,
			default: true,
			description: flagDescription(labelOf(key).toLowerCase()),
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
			compoundValue(at, spec, raw, 'flag', (given) => readFlags(at, given, keys)),
		words: () => `object of true/false: ${options.map((option) => option.name).join(', ')}`,
	};
}

export const consent = flagsKind(
	CHANNELS,
	(channel) => `Whether the person consents to be contacted by ${channel}`,
);

export const entitiesToSync = flagsKind(SYNC_KINDS, (kind) => `Whether to synchronise ${kind}`);
