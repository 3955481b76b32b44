import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { CONNECTION_RESOURCES } from '../../shared/catalogue';
import {
	credentialIdOverride,
	OUTPUT_OPERATIONS,
	outputProperty,
	requestOptions,
} from './common.descriptions';

/** Version 2 offers the forms in the user's words; version 1 keeps saved workflows' parameters. */
// Readers compare typeVersion themselves: a function here would put this file on the request path.
export const FORM_VERSION = 2;

/** `displayOptions.show` conditions: a property of version 1 only, or of version 2 onwards. */
export const ONLY_VERSION_1: IDisplayOptions['show'] = { '@version': [1] };
export const FROM_VERSION_2: IDisplayOptions['show'] = {
	'@version': [{ _cnd: { gte: FORM_VERSION } }],
};

/** Each version's properties: one both show alike listed once, one that differs twice under one name. */
export function versioned(
	version1: INodeProperties[],
	version2: INodeProperties[],
): INodeProperties[] {
	const only1 = (properties: INodeProperties[]) =>
		updateDisplayOptions({ show: ONLY_VERSION_1 }, properties);
	const from2 = (properties: INodeProperties[]) =>
		updateDisplayOptions({ show: FROM_VERSION_2 }, properties);
	if (version1.length !== version2.length) return [...only1(version1), ...from2(version2)];
	return version1.flatMap((property, at) =>
		JSON.stringify(property) === JSON.stringify(version2[at])
			? [property]
			: [...only1([property]), ...from2([version2[at]])],
	);
}

/** Version 2's Options collection: the node-wide settings in one place (request.ts `readSetting`). */
export const SETTINGS = 'options';

/** An operation's Options collection (version 2 folds the node-wide settings into it). */
export const optionsCollection = (options: INodeProperties[]): INodeProperties => ({
	displayName: 'Options',
	name: SETTINGS,
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options,
});

/** Version 2's one Options: the node-wide settings under version 1's names and the operation's `own`. */
export function settingsProperty(own: INodeProperties[] = []): INodeProperties {
	const output = (outputProperty.options ?? []) as INodeProperties[];
	return optionsCollection(
		[
			...own,
			{
				...credentialIdOverride,
				displayOptions: { show: { '/resource': [...CONNECTION_RESOURCES] } },
			},
			...output.map((option) => ({
				...option,
				displayOptions: {
					show: { '/operation': OUTPUT_OPERATIONS, ...option.displayOptions?.show },
				},
			})),
			...((requestOptions.options ?? []) as INodeProperties[]),
		].sort((a, b) => a.displayName.localeCompare(b.displayName, 'en')),
	);
}

/** Version 1's three node-wide properties, and version 2's Options where an operation has none. */
export const NODE_WIDE_PROPERTIES: INodeProperties[] = [
	...updateDisplayOptions({ show: ONLY_VERSION_1 }, [
		credentialIdOverride,
		outputProperty,
		requestOptions,
	]),
	...updateDisplayOptions(
		{ show: FROM_VERSION_2, hide: { operation: ['find', 'getAll', 'upsert'] } },
		[settingsProperty()],
	),
];

/** An operation's properties, its own Options holding the node-wide settings at version 2. */
export function withSettings(
	version1: INodeProperties[],
	version2: INodeProperties[] = version1,
): INodeProperties[] {
	const folded = version2.map((property) =>
		property.name === SETTINGS
			? settingsProperty((property.options ?? []) as INodeProperties[])
			: property,
	);
	return versioned(version1, folded);
}
