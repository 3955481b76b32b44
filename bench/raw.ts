/**
 * The baseline: the same requests as our node sends, from plain Node (node:http), with no n8n in
 * between. With `keepAlive` one http.Agent reuses its connections (the raw HTTP limit); without it
 * every request opens a new TCP connection, as n8n's request helper does (it builds new agents for
 * every request).
 */
import http from 'http';

import type { SandboxInfo } from './common';

export interface RawClient {
	request(method: string, url: string, body?: string): Promise<unknown>;
	close(): void;
}

export function rawClient(info: SandboxInfo, keepAlive: boolean): RawClient {
	const agent = new http.Agent({ keepAlive });
	const baseHeaders: http.OutgoingHttpHeaders = {
		accept: 'application/json',
		authorization: `Bearer ${info.token}`,
		'x-service-credential-id': info.credentialId,
	};
	return {
		request(method, url, body) {
			return new Promise((resolve, reject) => {
				const headers =
					body === undefined
						? baseHeaders
						: {
								...baseHeaders,
								'content-type': 'application/json',
								'content-length': Buffer.byteLength(body),
							};
				const req = http.request(url, { method, agent, headers }, (res) => {
					const chunks: Buffer[] = [];
					res.on('data', (c: Buffer) => chunks.push(c));
					res.on('end', () => {
						const status = res.statusCode ?? 0;
						const text = Buffer.concat(chunks).toString('utf8');
						if (status < 200 || status >= 300) {
							reject(new Error(`${method} ${url}: HTTP ${status} ${text.slice(0, 200)}`));
							return;
						}
						try {
							resolve(JSON.parse(text));
						} catch (error) {
							reject(error as Error);
						}
					});
					res.on('error', reject);
				});
				req.on('error', reject);
				req.end(body);
			});
		},
		close() {
			agent.destroy();
		},
	};
}

interface PeoplePage {
	people: Record<string, unknown>[];
	_metadata?: { nextLink?: string | null };
}

/** Return All, the raw way: limit=100, then follow `_metadata.nextLink` until there is none. */
export async function rawList(
	client: RawClient,
	info: SandboxInfo,
	pageSize = 100,
	maxRecords = Infinity,
): Promise<Record<string, unknown>[]> {
	const people: Record<string, unknown>[] = [];
	let url: string | undefined = `${info.urls.crm}/api/people?limit=${pageSize}`;
	while (url !== undefined && people.length < maxRecords) {
		const page = (await client.request('GET', url)) as PeoplePage;
		for (const person of page.people) people.push(person);
		url = page.people.length > 0 && page._metadata?.nextLink ? page._metadata.nextLink : undefined;
	}
	return people;
}

/** Creates `count` people, `concurrency` requests in flight; returns the created people in order. */
export async function rawCreate(
	client: RawClient,
	info: SandboxInfo,
	inputs: Array<{ first: string; last: string }>,
	concurrency: number,
): Promise<unknown[]> {
	const results = new Array<unknown>(inputs.length);
	let next = 0;
	const url = `${info.urls.crm}/api/people`;
	const worker = async () => {
		while (next < inputs.length) {
			const index = next++;
			const { first, last } = inputs[index];
			results[index] = await client.request(
				'POST',
				url,
				JSON.stringify({ firstName: first, lastName: last }),
			);
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, inputs.length) }, worker));
	return results;
}
