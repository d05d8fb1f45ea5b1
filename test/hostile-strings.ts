// Attack strings shared by the tests that prove server text stays inert on every output channel.

/** Strings an attacker would try: terminal escapes, line tricks, workflow commands, markup, hidden Unicode. */
export const HOSTILE = [
  "\u001b[1A\u001b[2K0 errors",
  "\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007",
  "\u009b2J",
  "ok\r0 errors, 0 warnings",
  "bell\u0007",
  "line\u2028::error::pwned",
  "para\u2029x",
  "\u202eevil\u202c",
  "\u2066isolate\u2069",
  "zero\u200bwidth",
  "\ufeffbom",
  "\n::stop-commands::x\n",
  "::warning file=a::b",
  "%0A::error::encoded",
  "| a | b |",
  "```\n# heading",
  "<img src=x onerror=alert(1)>",
  "tag\u{E0041}\u{E0042}",
  "nel\u0085x",
  "del\u007f",
  "q\n::stop-commands::x\n",
];
