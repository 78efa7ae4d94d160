-- SPDX-License-Identifier: Apache-2.0
-- topoplace job_submit.lua (JobSubmitPlugins=lua; install next to slurm.conf).
--
-- Applies the placement plan that the topoplace SPANK plugin computed in sbatch/salloc/srun
-- and handed over with spank_job_control_setenv (it arrives in job_desc.spank_job_env):
--   TOPOPLACE_CONSTRAINT  leaf groups the engine chose: "lg_g002" or "[lg_g001*3&lg_g002*1]"
--   TOPOPLACE_SWITCHES    Slurm leaf switches the plan spans       -> req_switch
--   TOPOPLACE_WAIT        seconds Slurm may wait for that count     -> wait4switch
--   TOPOPLACE_EXCLUDE     hosts flagged unhealthy at submit time    -> exc_nodes (added)
-- The constraint goes to `prefer` (soft): Slurm tries the chosen groups first and, when they
-- can no longer hold the job (nodes taken or drained since submission), falls back to its
-- own topology/tree placement bounded by the switch count. Set HARD = true to put it in
-- `features` instead (the job then waits for exactly those groups). See docs/spank.md.
-- Runs in slurmctld under the job write lock: no I/O, no RPC, only string work.

local HARD = false          -- true: constraint in features (hard); false: in prefer (soft)
local NO_VAL = 4294967294   -- unset uint32 fields read as NO_VAL (0xfffffffe)

local function plan_of(job_desc)
    local env = job_desc.spank_job_env
    if env == nil then return nil end
    local plan = {}
    local found = false
    for _, kv in pairs(env) do
        -- the value arrives as NAME=value (the SPANK_ prefix is added later, for Prolog)
        local k, v = string.match(kv, "^([%w_]+)=(.*)$")
        if k ~= nil then
            k = string.gsub(k, "^SPANK_", "")
            if string.sub(k, 1, 10) == "TOPOPLACE_" then
                plan[k] = v
                found = true
            end
        end
    end
    if found then return plan end
    return nil
end

local function unset(v)
    return v == nil or v == "" or v == NO_VAL or v == 0
end

-- a feature expression we generate: names, brackets, '&', '*' and digits only
local function sane_constraint(c)
    return c ~= nil and c ~= "" and string.len(c) < 4096 and string.match(c, "^[%w_%.%-%[%]&%*|]+$") ~= nil
end

local function sane_hostlist(h)
    return h ~= nil and h ~= "" and string.len(h) < 65536 and string.match(h, "^[%w_%.%-%[%],]+$") ~= nil
end

-- The plan applied to job_desc; runs under pcall (below).
local function apply_plan(job_desc, part_list, submit_uid)
    local plan = plan_of(job_desc)
    if plan == nil then return slurm.SUCCESS end
    if not unset(job_desc.req_nodes) then
        slurm.log_info("topoplace: uid %d chose nodes (%s): plan not applied", submit_uid, job_desc.req_nodes)
        return slurm.SUCCESS
    end
    local applied = {}

    local c = plan["TOPOPLACE_CONSTRAINT"]
    if sane_constraint(c) then
        if HARD then
            if unset(job_desc.features) then
                job_desc.features = c
                table.insert(applied, "features=" .. c)
            elseif string.find(c, "[", 1, true) == nil then
                job_desc.features = "(" .. job_desc.features .. ")&" .. c
                table.insert(applied, "features+=" .. c)
            end
        elseif unset(job_desc.prefer) then
            job_desc.prefer = c
            table.insert(applied, "prefer=" .. c)
        end
    end

    local sw = tonumber(plan["TOPOPLACE_SWITCHES"])
    if sw ~= nil and sw >= 1 and sw < 100000 and unset(job_desc.req_switch) then
        job_desc.req_switch = sw
        local wait = tonumber(plan["TOPOPLACE_WAIT"])
        if wait ~= nil and wait >= 0 and wait <= 86400 then job_desc.wait4switch = wait end
        table.insert(applied, "switches=" .. sw .. "@" .. tostring(job_desc.wait4switch) .. "s")
    end

    local ex = plan["TOPOPLACE_EXCLUDE"]
    if sane_hostlist(ex) then
        if unset(job_desc.exc_nodes) then
            job_desc.exc_nodes = ex
        else
            job_desc.exc_nodes = job_desc.exc_nodes .. "," .. ex
        end
        table.insert(applied, "exclude+=" .. ex)
    end

    slurm.log_info("topoplace: uid %d %s plan (predicted %s): %s", submit_uid,
                   plan["TOPOPLACE_MODE"] or "?", plan["TOPOPLACE_HOSTS"] or "?", table.concat(applied, " "))
    return slurm.SUCCESS
end

-- Slurm up to 25.11 accepts a job unmodified when this script raises a Lua error; 26.05
-- rejects it (ESLURM_LUA_FUNC_FAILED_RUNTIME_ERROR). A bug here must never reject jobs on any
-- release: the error is logged and the job goes on as submitted, without the rest of the plan.
function slurm_job_submit(job_desc, part_list, submit_uid)
    local ok, rc = pcall(apply_plan, job_desc, part_list, submit_uid)
    if ok then return rc end
    slurm.log_error("topoplace: job_submit.lua: %s (job %s submitted without the rest of its plan)",
                    tostring(rc), tostring(job_desc.name))
    return slurm.SUCCESS
end

function slurm_job_modify(job_desc, job_rec, part_list, modify_uid)
    return slurm.SUCCESS
end

return slurm.SUCCESS
