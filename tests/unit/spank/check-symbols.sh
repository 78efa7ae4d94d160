#!/usr/bin/env bash
# topoplace.so exports exactly the SPANK entry points, and needs nothing but Slurm (from
# the host process), libc, libm and zlib at run time.
set -uo pipefail
so=$1
fail=0
want="plugin_name plugin_type plugin_version slurm_spank_exit slurm_spank_init slurm_spank_init_post_opt
slurm_spank_job_prolog slurm_spank_task_init slurm_spank_user_init spank_plugin_version"
got=$(nm -D --defined-only "$so" | awk '{print $3}' | sort | paste -sd' ')
if [ "$got" != "$(echo $want | tr ' ' '\n' | sort | paste -sd' ')" ]; then
  echo "FAIL exported symbols: $got"; fail=1
else
  echo "ok   exported: $got"
fi
odd=$(nm -D --undefined-only "$so" | awk '$1 == "U" {print $2}' | grep -Ev '^(slurm_|spank_|gz)' |
      grep -Ev '@(GLIBC|GCC)_' | grep -Ev '^(__gmon_start__|_ITM_|__cxa_finalize|_Jv_RegisterClasses)' || true)
if [ -n "$odd" ]; then echo "FAIL undefined symbols outside Slurm/libc: $odd"; fail=1; else echo "ok   undefined: slurm_*, spank_*, libc, zlib only"; fi
needed=$(readelf -d "$so" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | paste -sd' ')
case " $needed " in
  *libstdc++*|*libslurm*) echo "FAIL NEEDED: $needed"; fail=1 ;;
  *) echo "ok   NEEDED: $needed" ;;
esac
exit $fail
