import type { INodeProperties } from 'n8n-workflow';

import { ENTITY_KINDS } from '../../../shared/entityKinds';
import { flagLabel, flagsProperty, flagsReader } from './flags';

export function entitiesToSyncProperty(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return flagsProperty(
		'entitiesToSync',
		'Entities to Sync',
		ENTITY_KINDS,
		(key) => `Whether to synchronise ${flagLabel(key).toLowerCase()}`,
		{
			description:
				'Which kinds of records to synchronise. Add a flag and switch it on (sync) or off (do not sync); flags you do not add are not sent.',
			...overrides,
		},
	);
}

/** Entities to Sync: a flag per entity kind (spec 2.3). */
export const toEntitiesToSync = flagsReader(ENTITY_KINDS);
