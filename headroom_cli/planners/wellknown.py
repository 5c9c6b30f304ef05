"""wellknown: the rows of a long list a reader looks up first, by the name they carry.

Asked what is in a list of hundreds of libraries, packages, settings or symbols, a person
looks up the few everything else rests on — the C library, OpenSSL, Python and pip, the
compiler, the database, `PATH`, the build type — not a row that differs from its neighbours.
No structure tells those rows apart (every row of `ldconfig -p` has one form); their names
do. This module holds those names, gathered by kind from general knowledge of the systems a
coding agent works on (not from any one output), and finds the rows that carry one as their
own name: a name most rows share (`(libc6,x86-64)` on every row of `ldconfig -p`) names the
list, not a row.

A name is compared in a stem form: lower case, without an architecture (`:amd64`), a shared
object's suffix (`.so.6`) or a trailing version (`python3.11`, `postgresql-15`, `libssl3`).
"""

from __future__ import annotations

from functools import cache

from ..patterns import lazy

# By kind, whitespace-separated stems (see _stem).
_NAMES = """
libc libm libdl libpthread librt ld-linux ld-linux-x86-64 ld-linux-aarch64 libstdc++ libgcc_s
libgcc libz zlib zlib1g libssl libcrypto libffi libsqlite libcurl libxml libpq libuuid
libsystemd libudev libselinux libpcre libpcre2 liblzma libbz2 libzstd libreadline libncurses
libncursesw libtinfo libexpat libgmp libpython libjpeg libpng libnss libkrb5 libgssapi_krb5
libldap libcap libseccomp libdbus libglib libgnutls libidn2 libmysqlclient libmariadb
libyaml libicuuc libatomic libresolv libcrypt libnsl libutil libanl libgomp libasan
glibc libc6 libc6-dev musl coreutils bash dash zsh apt dpkg rpm yum dnf apk systemd init
openssl ca-certificates openssh openssh-server openssh-client ssh sshd sudo curl wget git
gcc g++ c++ clang llvm make cmake ninja autoconf automake pkg-config binutils gdb
build-essential python python3 python3-pip python-is-python3 perl ruby php java openjdk
nodejs node npm npx yarn pnpm golang rustc cargo rustup dotnet tzdata locales util-linux
procps grep sed tar gzip xz-utils bzip2 unzip linux-image linux-headers grub kmod udev
base-files debian-archive-keyring gnupg gpg login passwd iproute2 iptables nftables
net-tools dnsutils vim nano less postgresql postgres psql mysql mysqld mariadb sqlite
redis redis-server mongodb nginx apache2 httpd docker docker-ce containerd runc kubectl
kubelet helm terraform ansible cron rsyslog dbus systemd-journald systemd-logind
systemd-resolved systemd-networkd systemd-udevd networkmanager containerd-shim
kube-system kube-apiserver kube-controller-manager kube-scheduler kube-proxy coredns etcd
ingress-nginx metrics-server calico flannel cilium
pip setuptools wheel virtualenv venv pytest numpy pandas scipy requests urllib3 certifi idna
charset-normalizer six typing-extensions typing_extensions packaging attrs pyyaml yaml jinja2
markupsafe click django flask fastapi uvicorn gunicorn sqlalchemy alembic psycopg2
psycopg2-binary boto3 botocore cryptography pyopenssl cffi pydantic tox black mypy ruff
flake8 pylint matplotlib torch tensorflow scikit-learn pillow lxml protobuf grpcio
react react-dom typescript webpack vite eslint prettier jest mocha babel express
lodash vue angular esbuild rollup tslib
serde serde_json tokio clap anyhow thiserror syn quote proc-macro2 futures hyper reqwest
junit junit-jupiter spring-boot spring-core spring-web jackson-databind guava log4j-core
log4j-api slf4j-api logback-classic commons-lang3 lombok hibernate-core kotlin-stdlib
maven-compiler-plugin maven-surefire-plugin
rails rake bundler rack composer
cmake_version cmake_build_type cmake_c_compiler cmake_cxx_compiler cmake_install_prefix
cmake_system_name cmake_generator cmake_c_flags cmake_cxx_flags cmake_prefix_path
__gnuc__ __clang__ __linux__ __x86_64__ __aarch64__ __stdc_version__ __cplusplus __version__
path home shell lang pwd ld_library_path pythonpath cxx cflags cxxflags ldflags java_home
gopath goroot node_env virtual_env editor
user.name user.email core.editor core.autocrlf init.defaultbranch pull.rebase
remote.origin.url push.default
max_connections shared_buffers work_mem maintenance_work_mem effective_cache_size
wal_level listen_addresses port log_min_duration_statement max_wal_size search_path
kernel.pid_max kernel.hostname kernel.osrelease vm.swappiness vm.overcommit_memory
fs.file-max net.core.somaxconn net.ipv4.ip_forward kernel.panic
_nprocessors_onln page_size pagesize open_max
pg_class pg_attribute pg_proc pg_stat_activity pg_locks pg_settings pg_namespace pg_index
pg_database pg_roles pg_tables pg_stat_statements information_schema
malloc printf fork execve mmap pthread_create dlopen
ssl_ctx_new ssl_new ssl_connect ssl_accept ssl_read ssl_write openssl_init_ssl
__libc_start_main __cxa_throw
"""
# An architecture after a name (`libc6:amd64`), a shared object's suffix, a version at the end
# (`python3.11`, `postgresql-15`, `libssl3`, `libpcre2-8`).
_ARCH = lazy(r":(?:amd64|i386|arm64|armhf|all|x86_64|aarch64)$")
_SO = lazy(r"\.so(?:\.[\d.]+)?$")
_UNIT = lazy(r"\.(?:service|socket|timer|mount|target)$")  # a systemd unit's kind
# A Kubernetes pod's name after its workload's: a ReplicaSet's hash, then the pod's own suffix
# (`coredns-5d78c9869d-x7k2p`, `kube-proxy-x7k2p`): tried only when the name is not known as
# it stands (`util-linux` is a name).
_POD = lazy(r"(?:-[a-f0-9]{8,10})?-[a-z0-9]{5}$")
_VERSION = lazy(r"(?<=[a-z+])[-.]?\d+(?:\.\d+)*[a-z]?$")
# A row's words: runs between spaces and the brackets, quotes, commas and equals signs around
# names (`(libc6,x86-64)`, `CC = "gcc"`, `libc=/lib/…`) that start with a letter or an
# underscore, up to a slash (`python3.11/now` is python's row; a path is no name, its folders
# say where a thing is, `/var/lib/postgresql/15/main`). Split in C: a list has many rows.
_SPACED = str.maketrans(dict.fromkeys(",;()[]{}<>\"'`=|│", " "))
# Of a row, the words that can be its name: the first few and the last (`ls -l`'s file).
_FIRST_WORDS = 3
_END_CHARS = 120  # of a row, at each end, where its words are looked for
# A name on more rows than this share (at least _COMMON_ROWS) names the list, not a row.
_COMMON_SHARE = 0.05
_COMMON_ROWS = 3


@cache
def _ranks() -> dict[str, int]:
    """Each stem's place in _NAMES: the kinds come most fundamental first (the C library
    before a compression library, pip before a web framework)."""
    ranks: dict[str, int] = {}
    for place, name in enumerate(_NAMES.split()):
        ranks.setdefault(_stem(name), place)
    return ranks


def _stem(word: str) -> str:
    """`libc6:amd64` → `libc`, `libc.so.6` → `libc`, `python3.11` → `python`, `SSL_new@@X` →
    `ssl_new`, `org.slf4j:slf4j-api:jar:1.7.36` → `slf4j-api`, `ssh.service` → `ssh`."""
    word = word.lower().split("@", 1)[0].rstrip(".:,;")
    if word.count(":") >= 2:  # Maven's and Gradle's `group:artifact:version`: the artifact
        word = word.split(":")[1]
    word = _UNIT.sub("", word)
    word = _ARCH.sub("", word)
    word = _SO.sub("", word)
    return _VERSION.sub("", word) or word


def _known_stem(word: str, ranks: dict[str, int]) -> str:
    """The well-known stem a word spells, else ""."""
    stem = _stem(word)
    if stem in ranks:
        return stem
    workload = _POD.sub("", stem)
    return workload if workload != stem and workload in ranks else ""


def _candidates(row: str) -> list[tuple[int, str]]:
    """The words of a row that can be its name, by place: its first few (0, 1, 2) and its
    last (-1) when the row ends with a word (`ls -l`'s file, `CC = "gcc"`'s compiler); a
    row's one word is its first. Only the row's two ends are read (a disassembly's rows run
    long)."""
    chunks = row[:_END_CHARS].translate(_SPACED).split()
    placed = []
    for at, chunk in enumerate(chunks):
        if chunk[0].isalpha() or chunk[0] == "_":
            placed.append((at, chunk.split("/", 1)[0]))
            if len(placed) == _FIRST_WORDS:
                break
    if len(row) > _END_CHARS:
        ending = row[-_END_CHARS:].translate(_SPACED).rsplit(None, 1)
        last, last_at = (ending[-1] if ending else ""), -1
    else:
        last, last_at = (chunks[-1] if chunks else ""), len(chunks) - 1
    found = [(-1 if at == last_at and place else place, word)
             for place, (at, word) in enumerate(placed)]
    if (last[:1].isalpha() or last[:1] == "_") and all(at != last_at for at, _ in placed):
        found.append((-1, last.split("/", 1)[0]))
    return found


def known_rows(rows: list[str], most: int) -> list[int]:
    """The indexes of at most `most` rows whose own name is a well-known one: those named by
    their first own word, then by their last, then by a word between, each the most fundamental
    name first (each name's first row): a word on more than _COMMON_SHARE of the rows names
    the list instead."""
    if most <= 0:
        return []
    ranks = _ranks()
    named = [_candidates(row) for row in rows]
    # rows each word names at its place: `libc6` in every row of `ldconfig -p`, the installer
    # `pip` closing every row of `pip list -v`, name none (the first `pip` of its row does)
    spread: dict[tuple[int, str], int] = {}
    for placed in named:
        for key in placed:
            spread[key] = spread.get(key, 0) + 1
    common = max(_COMMON_ROWS, int(len(rows) * _COMMON_SHARE))
    found: dict[str, tuple[int, int]] = {}  # each stem's row: first where it is the name
    stems: dict[str, str] = {}
    for index, placed in enumerate(named):
        own = [(place, word) for place, word in placed if spread[place, word] <= common]
        first = next((place for place, _ in own if place >= 0), None)
        for place, word in own:
            stem = stems.get(word)
            if stem is None:
                stem = stems[word] = _known_stem(word, ranks)
            if stem:
                # the row's first own word names it (`CMAKE_VERSION "3.25.1"`, dpkg's `ii
                # libc6:amd64`), else its last (`CC = "gcc"`, `ls -l`'s file, but a value
                # too: `CMAKE_BASE_NAME "g++"`); a word between is an argument
                # (`BLDSHARED = "gcc -shared …"`)
                named_by = 0 if place == first else 1 if place == -1 else 2
                found[stem] = min(found.get(stem, (3, 0)), (named_by, index))
    ordered = sorted((named_by, ranks[stem], index) for stem, (named_by, index) in found.items())
    return list(dict.fromkeys(index for *_, index in ordered))[:most]
