import { describe, expect, it } from "vitest";
import {
  type CertificateClaims,
  identityFromCertificate,
  identityFromPredicate,
  type PredicateClaims,
  predicateClaims,
  SLSA_PROVENANCE_V02,
  SLSA_PROVENANCE_V1,
} from "../../../src/artifact/provenance-identity.js";
import { ArtifactTrustError } from "../../../src/errors.js";

const label = "@acme/files-server@1.2.3";
const GITHUB = "https://token.actions.githubusercontent.com";

/** A DER UTF8String, as Fulcio writes its v2 extension values. */
function der(text: string): Buffer {
  const bytes = Buffer.from(text, "utf8");
  const length = bytes.length < 0x80 ? Buffer.from([bytes.length]) : Buffer.from([0x82, bytes.length >> 8, bytes.length & 0xff]);
  return Buffer.concat([Buffer.from([0x0c]), length, bytes]);
}

/** The claims of a GitHub Actions certificate with Fulcio's v2 extensions. */
function githubCertificate(
  overrides: Record<string, string | null> = {},
  san = "https://github.com/acme/files-server/.github/workflows/release.yml@refs/tags/v1.2.3",
): CertificateClaims {
  const values: Record<string, string | null> = {
    "1.3.6.1.4.1.57264.1.8": GITHUB,
    "1.3.6.1.4.1.57264.1.11": "github-hosted",
    "1.3.6.1.4.1.57264.1.12": "https://github.com/acme/files-server",
    "1.3.6.1.4.1.57264.1.14": "refs/tags/v1.2.3",
    "1.3.6.1.4.1.57264.1.18": "https://github.com/acme/files-server/.github/workflows/release.yml@refs/tags/v1.2.3",
    ...overrides,
  };
  const extensions = new Map<string, Buffer>();
  for (const [oid, value] of Object.entries(values)) if (value !== null) extensions.set(oid, der(value));
  return { subjectAlternativeName: san, extensions };
}

const predicate: PredicateClaims = {
  repository: "https://github.com/acme/files-server",
  workflow: ".github/workflows/release.yml",
  ref: "refs/tags/v1.2.3",
  builder: "https://github.com/actions/runner/github-hosted",
};

function mismatch(call: () => unknown): string {
  try {
    call();
  } catch (error) {
    if (error instanceof ArtifactTrustError) return `${error.code}: ${error.message}`;
    throw error;
  }
  throw new Error("expected an ArtifactTrustError");
}

describe("identity from a Fulcio certificate and its predicate", () => {
  it("agreeing claims give the certificate's build", () => {
    expect(identityFromCertificate(githubCertificate(), predicate, label)).toEqual(predicate);
  });

  it("a predicate naming another repository fails closed", () => {
    expect(
      mismatch(() => identityFromCertificate(githubCertificate(), { ...predicate, repository: "https://github.com/attacker/files-server" }, label)),
    ).toMatch(
      /^provenance_mismatch: @acme\/files-server@1\.2\.3: .*the certificate names repository "https:\/\/github.com\/acme\/files-server" but the predicate "https:\/\/github.com\/attacker\/files-server"/,
    );
  });

  it("a predicate naming another workflow fails closed", () => {
    expect(mismatch(() => identityFromCertificate(githubCertificate(), { ...predicate, workflow: ".github/workflows/innocent.yml" }, label))).toMatch(
      /^provenance_mismatch: .*workflow ".github\/workflows\/release.yml" but the predicate ".github\/workflows\/innocent.yml"/,
    );
  });

  it("a predicate naming another ref fails closed", () => {
    expect(mismatch(() => identityFromCertificate(githubCertificate(), { ...predicate, ref: "refs/heads/main" }, label))).toMatch(
      /^provenance_mismatch: .*ref "refs\/tags\/v1.2.3" but the predicate "refs\/heads\/main"/,
    );
  });

  it("a self-hosted runner claimed as GitHub-hosted fails closed", () => {
    expect(mismatch(() => identityFromCertificate(githubCertificate({ "1.3.6.1.4.1.57264.1.11": "self-hosted" }), predicate, label))).toMatch(
      /^provenance_mismatch: .*runner was "self-hosted" but the predicate names builder "https:\/\/github.com\/actions\/runner\/github-hosted"/,
    );
  });

  it("a github.com repository vouched for by another issuer fails closed", () => {
    expect(mismatch(() => identityFromCertificate(githubCertificate({ "1.3.6.1.4.1.57264.1.8": "https://gitlab.com" }), predicate, label))).toMatch(
      /^provenance_mismatch: .*names a GitHub repository but was issued for "https:\/\/gitlab.com"/,
    );
  });

  it("a build config outside the certificate's repository fails closed", () => {
    const elsewhere = githubCertificate({ "1.3.6.1.4.1.57264.1.18": "https://github.com/attacker/x/.github/workflows/release.yml@refs/tags/v1.2.3" });
    expect(mismatch(() => identityFromCertificate(elsewhere, predicate, label))).toMatch(
      /^provenance_mismatch: .*build config "https:\/\/github.com\/attacker\/x\/.*" is not in its repository/,
    );
  });

  it("a certificate naming no repository fails closed", () => {
    expect(mismatch(() => identityFromCertificate(githubCertificate({ "1.3.6.1.4.1.57264.1.12": null }), predicate, label))).toMatch(
      /^provenance_mismatch: .*names no source repository/,
    );
  });

  it("a reusable workflow (the SAN) signing for the caller (the build config) is the caller's build", () => {
    const reusable = githubCertificate({}, "https://github.com/acme/shared/.github/workflows/publish.yml@refs/heads/main");
    expect(identityFromCertificate(reusable, predicate, label).workflow).toBe(".github/workflows/release.yml");
  });

  it("GitLab's build config (`//` after the repository) and a v0.2 predicate naming a job", () => {
    const gitlab = githubCertificate({
      "1.3.6.1.4.1.57264.1.8": "https://gitlab.com",
      "1.3.6.1.4.1.57264.1.11": "gitlab-hosted",
      "1.3.6.1.4.1.57264.1.12": "https://gitlab.com/acme/files-server",
      "1.3.6.1.4.1.57264.1.14": "refs/heads/main",
      "1.3.6.1.4.1.57264.1.18": "https://gitlab.com/acme/files-server//.gitlab-ci.yml@refs/heads/main",
    });
    const claims = predicateClaims(
      SLSA_PROVENANCE_V02,
      {
        builder: { id: "https://gitlab.com/acme/files-server/-/runners/12" },
        invocation: { configSource: { uri: "git+https://gitlab.com/acme/files-server", entryPoint: "publish" } },
      },
      label,
    );
    expect(claims).toEqual({
      repository: "https://gitlab.com/acme/files-server",
      workflow: null,
      ref: null,
      builder: "https://gitlab.com/acme/files-server/-/runners/12",
    });
    expect(identityFromCertificate(gitlab, claims, label)).toEqual({
      repository: "https://gitlab.com/acme/files-server",
      workflow: ".gitlab-ci.yml",
      ref: "refs/heads/main",
      builder: "https://gitlab.com/acme/files-server/-/runners/12",
    });
  });

  it("an early-2023 certificate (Fulcio v1 extensions, raw strings) reads its repository and ref", () => {
    const extensions = new Map<string, Buffer>([
      ["1.3.6.1.4.1.57264.1.1", Buffer.from(GITHUB)],
      ["1.3.6.1.4.1.57264.1.5", Buffer.from("acme/files-server")],
      ["1.3.6.1.4.1.57264.1.6", Buffer.from("refs/tags/v1.2.3")],
    ]);
    const certificate = { subjectAlternativeName: "https://github.com/acme/files-server/.github/workflows/release.yml@refs/tags/v1.2.3", extensions };
    expect(identityFromCertificate(certificate, predicate, label)).toEqual(predicate);
  });

  it("a v2 extension that is not a DER UTF8String is refused", () => {
    const broken = githubCertificate();
    (broken.extensions as Map<string, Buffer>).set("1.3.6.1.4.1.57264.1.12", Buffer.from("https://github.com/acme/files-server"));
    expect(mismatch(() => identityFromCertificate(broken, predicate, label))).toMatch(
      /^attestation_malformed: .*extension 1\.3\.6\.1\.4\.1\.57264\.1\.12 is not a UTF8String/,
    );
  });

  it("a predicate that names no repository cannot be cross-checked and is refused", () => {
    expect(mismatch(() => identityFromCertificate(githubCertificate(), { ...predicate, repository: null }, label))).toMatch(
      /^attestation_malformed: .*names no source repository/,
    );
  });
});

describe("predicate claims", () => {
  it("SLSA v1 as npm writes it", () => {
    const v1 = {
      buildDefinition: {
        externalParameters: {
          workflow: { ref: "refs/tags/v1.2.3", repository: "https://github.com/acme/files-server", path: ".github/workflows/release.yml" },
        },
      },
      runDetails: { builder: { id: "https://github.com/actions/runner/github-hosted" } },
    };
    expect(predicateClaims(SLSA_PROVENANCE_V1, v1, label)).toEqual(predicate);
  });

  it("SLSA v0.2 from GitHub: configSource and the workflow ref entry point", () => {
    const v02 = {
      builder: { id: "https://github.com/npm/cli@9.2.0" },
      invocation: {
        configSource: {
          uri: "git+https://github.com/acme/files-server@refs/tags/v1.2.3",
          entryPoint: "acme/files-server/.github/workflows/release.yml@refs/tags/v1.2.3",
        },
      },
    };
    expect(predicateClaims(SLSA_PROVENANCE_V02, v02, label)).toEqual({ ...predicate, builder: "https://github.com/npm/cli@9.2.0" });
  });

  it("a field of the wrong type is refused", () => {
    expect(mismatch(() => predicateClaims(SLSA_PROVENANCE_V1, { buildDefinition: { externalParameters: { workflow: { repository: 42 } } } }, label))).toMatch(
      /"repository" is not a string/,
    );
    expect(mismatch(() => predicateClaims(SLSA_PROVENANCE_V1, "predicate", label))).toMatch(/its predicate is not an object/);
  });

  it("a key-signed provenance names its build through the predicate alone, which must name repository and workflow", () => {
    expect(identityFromPredicate(predicate, label)).toEqual(predicate);
    expect(mismatch(() => identityFromPredicate({ ...predicate, workflow: null }, label))).toMatch(/names no workflow/);
  });

  it("a `__proto__` key is read as a plain key, not the prototype", () => {
    const hostile = JSON.parse(
      '{"buildDefinition":{"externalParameters":{"__proto__":{"workflow":{"repository":"https://github.com/attacker/x","path":"a"}}}}}',
    ) as unknown;
    expect(predicateClaims(SLSA_PROVENANCE_V1, hostile, label).repository).toBeNull();
  });
});
