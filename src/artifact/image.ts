/** The digest of a container image as the local runtime holds it (`docker image inspect`), for an image run by tag. */

import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);
const DIGEST = /@(sha256:[0-9a-f]{64})$/;

/**
 * Ask the runtime that launches the image (`docker`, `podman`, ...) for the repository digest of the
 * image a tag names locally: what `docker run` starts unless it pulls. Null when the runtime is
 * missing, has no engine, does not hold the image, or answers anything but one digest of this repository.
 */
export async function localImageDigest(runtime: string, reference: string): Promise<string | null> {
  if (!/^(?:docker|podman|nerdctl|finch)$/.test(runtime)) return null;
  let stdout: string;
  try {
    ({ stdout } = await run(runtime, ["image", "inspect", "--format", "{{json .RepoDigests}}", reference], { timeout: 10_000, maxBuffer: 64 * 1024 }));
  } catch {
    return null;
  }
  return digestFor(stdout, reference);
}

/** The digest among `RepoDigests` (as JSON) that belongs to the reference's repository. Pure. */
export function digestFor(repoDigestsJson: string, reference: string): string | null {
  let digests: unknown;
  try {
    digests = JSON.parse(repoDigestsJson.trim());
  } catch {
    return null;
  }
  if (!Array.isArray(digests)) return null;
  const repository = reference.replace(/@.*$/, "").replace(/:[^/:]*$/, "");
  const found = new Set<string>();
  for (const item of digests) {
    if (typeof item !== "string") continue;
    const match = DIGEST.exec(item);
    const itemRepository = item.replace(/@.*$/, "");
    // Docker Hub names come back qualified (`docker.io/library/node`); a bare `node` matches its last segments.
    if (match !== null && (itemRepository === repository || itemRepository.endsWith(`/${repository}`))) found.add(match[1] as string);
  }
  return found.size === 1 ? ([...found][0] as string) : null;
}
