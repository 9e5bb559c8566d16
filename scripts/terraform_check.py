"""Check the Terraform in infrastructure/: `terraform fmt -check` and `terraform validate`.

Run by `.ci/run` (and by tests/aws/test_aws_terraform.py where terraform is on PATH), with the
standard library only:

    python3 scripts/terraform_check.py            # exit 0 when everything that can be checked passes
    python3 scripts/terraform_check.py DIR        # another copy of infrastructure/ (the tests use this)

Machines without access to the Terraform registry install providers from a local filesystem
mirror (these machines have `/opt/tf-plugins` with hashicorp/aws 5.100.0). The S3 Vectors
resources need the AWS provider >= 6.28, so they live in `infrastructure/modules/s3_vectors`:

1. `terraform fmt -check -recursive` over the whole folder;
2. the root module is validated against the newest AWS provider in the mirror, with the S3 Vectors
   module replaced by a stand-in of the same inputs and outputs (so every other resource, and
   every reference to the module's outputs, is checked);
3. `modules/s3_vectors` is validated on its own where the mirror holds a provider it accepts
   (>= 6.28); where none does, the script says so in one line (it cannot be checked here).

A mirror other than the usual places is named by TF_PROVIDER_MIRROR. Exit 1 when a check
fails or terraform is missing, with terraform's own output.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INFRA = ROOT / "infrastructure"
VECTORS_MODULE = Path("modules") / "s3_vectors"
PROVIDER = Path("registry.terraform.io") / "hashicorp" / "aws"
MIRRORS = ("/opt/tf-plugins", "~/.terraform.d/plugins", "/usr/local/share/terraform/plugins",
           "/usr/share/terraform/plugins")
MODULE_MINIMUM = (6, 28)
PIN = re.compile(r'(source\s*=\s*"hashicorp/aws"\s*\n\s*version\s*=\s*)"[^"]*"')


def version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def find_mirror() -> tuple[Path, list[str]] | None:
    """The first provider mirror that holds hashicorp/aws for this platform, with its versions."""
    candidates = [os.environ["TF_PROVIDER_MIRROR"]] if os.environ.get("TF_PROVIDER_MIRROR") else list(MIRRORS)
    for candidate in candidates:
        folder = Path(candidate).expanduser()
        versions = sorted((p.name for p in (folder / PROVIDER).glob("*") if p.is_dir()), key=version_tuple)
        if versions:
            return folder, versions
    return None


def cli_config(folder: Path, mirror: Path) -> Path:
    """A Terraform CLI configuration that installs hashicorp/aws from the mirror only."""
    path = folder / "terraform.rc"
    path.write_text(
        "provider_installation {\n"
        f'  filesystem_mirror {{\n    path    = "{mirror}"\n    include = ["registry.terraform.io/hashicorp/aws"]\n  }}\n'
        '  direct {\n    exclude = ["registry.terraform.io/hashicorp/aws"]\n  }\n}\n', encoding="utf-8")
    return path


def run(terraform: str, args: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, str]:
    done = subprocess.run([terraform, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    return done.returncode, (done.stdout + done.stderr).strip()


def pin(folder: Path, version: str) -> None:
    """Require exactly `version` of the AWS provider in every .tf file of `folder` (a copy)."""
    for path in folder.rglob("*.tf"):
        text = path.read_text(encoding="utf-8")
        if PIN.search(text):
            path.write_text(PIN.sub(rf'\g<1>"= {version}"', text), encoding="utf-8")


def stand_in(module: Path) -> None:
    """Replace the S3 Vectors module (in a copy) by one with the same variables and outputs and
    no resources: each output becomes a placeholder string."""
    outputs = re.findall(r'^output\s+"([^"]+)"', (module / "outputs.tf").read_text(encoding="utf-8"), re.M)
    for path in module.glob("*.tf"):
        if path.name != "variables.tf":
            path.unlink()
    body = "".join(f'output "{name}" {{\n  value = "stand-in-{name}"\n}}\n\n' for name in outputs)
    (module / "outputs.tf").write_text(body, encoding="utf-8")


def validate(terraform: str, folder: Path, env: dict[str, str]) -> tuple[bool, str]:
    code, out = run(terraform, ["init", "-backend=false", "-input=false", "-no-color"], folder, env)
    if code != 0:
        return False, out
    code, out = run(terraform, ["validate", "-no-color"], folder, env)
    return code == 0, out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    infra = Path(args[0]).resolve() if args else INFRA
    terraform = shutil.which("terraform")
    if terraform is None:
        print(f"terraform check: terraform is not on PATH; install Terraform >= 1.6 to validate {infra}")
        return 1
    quiet = {**os.environ, "TF_CLI_CONFIG_FILE": os.devnull, "CHECKPOINT_DISABLE": "1"}
    code, out = run(terraform, ["fmt", "-check", "-recursive", "-diff", "-no-color"], infra, quiet)
    if code != 0:
        print(f"terraform check: `terraform fmt -check` found files to format:\n{out}")
        return 1
    print("terraform fmt -check: ok")
    found = find_mirror()
    if found is None:
        print("terraform check: no provider mirror with hashicorp/aws found (looked in "
              f"{', '.join(MIRRORS)}; set TF_PROVIDER_MIRROR)")
        return 1
    mirror, versions = found
    failed = False
    with tempfile.TemporaryDirectory(prefix="terraform-check-") as scratch:
        work = Path(scratch)
        env = {**os.environ, "TF_CLI_CONFIG_FILE": str(cli_config(work, mirror)), "TF_IN_AUTOMATION": "1",
               "CHECKPOINT_DISABLE": "1", "TF_DATA_DIR": str(work / "tf-data")}
        root = work / "root"
        shutil.copytree(infra, root, ignore=shutil.ignore_patterns(".terraform*", "build", "*.tfstate*"))
        stand_in(root / VECTORS_MODULE)
        pin(root, versions[-1])
        ok, out = validate(terraform, root, env)
        print(f"terraform validate (root, hashicorp/aws {versions[-1]}, S3 Vectors module stood in): "
              + ("ok" if ok else f"FAILED\n{out}"))
        failed |= not ok
        usable = [v for v in versions if version_tuple(v)[:2] >= MODULE_MINIMUM]
        if usable:
            module = work / "s3_vectors"
            shutil.copytree(infra / VECTORS_MODULE, module)
            pin(module, usable[-1])
            env["TF_DATA_DIR"] = str(work / "tf-data-module")
            ok, out = validate(terraform, module, env)
            print(f"terraform validate ({VECTORS_MODULE}, hashicorp/aws {usable[-1]}): " + ("ok" if ok else f"FAILED\n{out}"))
            failed |= not ok
        else:
            print(f"terraform validate ({VECTORS_MODULE}): not checked here: it needs hashicorp/aws >= "
                  f"{'.'.join(map(str, MODULE_MINIMUM))} and the mirror {mirror} holds {', '.join(versions)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
