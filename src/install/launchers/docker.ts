/** `docker run` / `podman run` (also nerdctl, finch): the image is the first positional after run's value-taking flags. */

import { type FlagTable, flagSet, valuesOf, walkFlags } from "../flags.js";
import { classifyImage } from "../specs/image.js";
import { commandName } from "../tokens.js";
import { type CommandHandler, emptyParse } from "../types.js";
import { addFrom, missing, noteStop } from "./common.js";

const GLOBAL: FlagTable = {
  values: flagSet(
    "--context -c --host -H --config --log-level -l --tlscacert --tlscert --tlskey --connection --url --identity --root --runroot --storage-driver --storage-opt --cgroup-manager --events-backend --hooks-dir --module --network-cmd-path --runtime --tmpdir --volumepath --imagestore --ssh --cni-config-dir --namespace -n --address -a",
  ),
  booleans: flagSet("--debug -D --tls --tlsverify --remote -r --syslog"),
};

// docker/cli docs/reference/commandline/container_run.md, plus podman's extra run options.
const RUN_VALUES =
  "--add-host --annotation --attach -a --blkio-weight --blkio-weight-device --cap-add --cap-drop --cgroup-parent --cgroupns --cidfile --cpu-count --cpu-percent --cpu-period --cpu-quota --cpu-rt-period --cpu-rt-runtime --cpu-shares -c --cpus --cpuset-cpus --cpuset-mems --detach-keys --device --device-cgroup-rule --device-read-bps --device-read-iops --device-write-bps --device-write-iops --dns --dns-option --dns-search --domainname --entrypoint --env -e --env-file --expose --gpus --group-add --health-cmd --health-interval --health-retries --health-start-interval --health-start-period --health-timeout --hostname -h --io-maxbandwidth --io-maxiops --ip --ip6 --ipc --isolation --label -l --label-file --link --link-local-ip --log-driver --log-opt --mac-address --memory -m --memory-reservation --memory-swap --memory-swappiness --mount --name --network --net --network-alias --oom-score-adj --pid --pids-limit --platform --publish -p --pull --restart --runtime --security-opt --shm-size --stop-signal --stop-timeout --storage-opt --sysctl --tmpfs --ulimit --user -u --userns --uts --volume -v --volume-driver --volumes-from --workdir -w " +
  "--arch --os --variant --authfile --creds --cert-dir --pod --secret --uidmap --gidmap --subuidname --subgidname --umask --sdnotify --seccomp-policy --timeout --retry --retry-delay --unsetenv --env-merge --hooks-dir --pidfile --preserve-fds --requires --chrootdirs --init-path --passwd-entry --group-entry --personality --cgroup-conf --cgroups --conmon-pidfile --decryption-key --image-volume --hostuser --rootfs --pod-id-file --log-level";
const RUN_BOOLEANS =
  "--init --no-healthcheck --oom-kill-disable --privileged --read-only --rm --sig-proxy --use-api-socket --publish-all -P --detach -d --interactive -i --quiet -q --tty -t --help --disable-content-trust --replace --http-proxy --no-hosts --env-host --read-only-tmpfs --tls-verify --passwd --systemd";

const RUN: FlagTable = { values: flagSet(RUN_VALUES), booleans: flagSet(RUN_BOOLEANS) };

// Subcommands that use an existing container: nothing is pulled.
const EXISTING = new Set(["exec", "start", "attach", "logs", "ps", "stop"]);

/** docker/podman: `docker [global options] run|container run [options] IMAGE [command]`. */
export const docker: CommandHandler = {
  id: "docker run",
  commands: ["docker", "podman", "nerdctl", "finch"],
  parse(argv) {
    const result = emptyParse();
    const name = commandName(argv[0] ?? "");
    const global = walkFlags(argv.slice(1), GLOBAL);
    if (noteStop(global, result)) return result;
    let [sub, ...tokens] = global.rest;
    if (sub === "container" && tokens[0] === "run") [sub, ...tokens] = tokens;
    if (sub === undefined || EXISTING.has(sub)) return result;
    if (sub !== "run") {
      // `docker mcp gateway run`, `docker compose run`: the image comes from a catalog or a compose file.
      result.problems.push({ reason: "unsupported", display: `${name} ${sub}` });
      return result;
    }
    const walk = walkFlags(tokens, RUN);
    if (noteStop(walk, result)) return result;
    if (valuesOf(walk, "--rootfs").length > 0) return result;
    const image = walk.rest[0];
    if (image === undefined) missing(result);
    else addFrom(result, classifyImage(image, `${name} run`), `${name} run`);
    return result;
  },
};
