import type { INodeProperties } from 'n8n-workflow';

import { CONNECTION_RESOURCES } from '../../shared/catalogue';
import {
	credentialIdOverride,
	OUTPUT_OPERATIONS,
	outputProperty,
	requestOptions,
} from './common.descriptions';
import { versioned } from './version';

/** Version 2's Options collection: the node-wide settings in one place (request.ts `readSetting`). */
export const SETTINGS = 'options';

const byLabel = (properties: INodeProperties[]) =>
	[...properties].sort((a, b) => a.displayName.localeCompare(b.displayName, 'en'));

/**
 * Version 2's one Options collection: Connection ID, Output's and Request Options' settings under
 * their version 1 names (so one reader serves both), and an operation's own options (`own`, e.g. Get
 * Many's Page Size), in the order of their labels.
 */
export function settingsProperty(own: INodeProperties[] = []): INodeProperties {
	const output = (outputProperty.options ?? []) as INodeProperties[];
	return {
		displayName: 'Options',
		name: SETTINGS,
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: byLabel([
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
		]),
	};
}

/** The operations whose own Options collection holds the node-wide settings at version 2 (`withSettings`). */
export const OWN_SETTINGS_OPERATIONS = ['find', 'getAll', 'upsert'];

/**
 * An operation's properties in each version, its own Options collection (`options`) holding the
 * node-wide settings at version 2: one collection of that name, as n8n expects of a name.
 */
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
