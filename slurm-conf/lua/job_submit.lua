-- SPDX-License-Identifier: Apache-2.0
-- topoplace job_submit.lua (JobSubmitPlugins=lua; install next to slurm.conf).
--
-- Applies the placement plan that the topoplace SPANK plugin computed in sbatch/salloc/srun
-- and handed over with spank_job_control_setenv (it arrives in job_desc.spank_job_env):
--   TOPOPLACE_CONSTRAINT  leaf groups the engine chose: "lg_g002" or "[lg_g001*3&lg_g002*1]"
--   TOPOPLACE_SWITCHES    Slurm leaf switches the plan spans       -> req_switch
--   TOPOPLACE_WAIT        seconds Slurm may wait for that count     -> wait4switch
--   TOPOPLACE_EXCLUDE     hosts flagged unhealthy at submit time,   -> exc_nodes (added)
--                         and the degraded hosts a multi-node plan leaves out (this job only);
--                         alone (no constraint, no switches) for a job that got no plan
--                         (no fit at submission, or jobs queued ahead of it)
-- The constraint goes to `prefer` (soft): Slurm tries the chosen groups first and, when they
-- can no longer hold the job (nodes taken or drained since submission), falls back to its
-- own topology/tree placement bounded by the switch count. Set HARD = true to put it in
-- `features` instead (the job then waits for exactly those groups). See docs/spank.md.
-- Under TopologyPlugin=topology/topoplace (24.11+) the plugin makes no plan: it hands only
-- the job's options (TOPOPLACE_DECIDE=start) and slurmctld chooses the nodes when the job
-- starts; this script then applies nothing (docs/topology-plugin.md).
-- Runs in slurmctld under the job write lock: no I/O, no RPC, only string work.

local HARD = false          -- true: constraint in features (hard); false: in prefer (soft)
-- Clusters whose NVLink racks are Slurm blocks (TopologyPlugin=topology/block or a block
-- topology in topology.yaml; Slurm 24.05+): true hands --topo-nvl / --topo-segment to Slurm's
-- block plugin as segments (job_desc.segment_size, which Lua can set from 25.11.2, so on
-- 26.05; on 24.11 Lua cannot, and the block plugin alone keeps a job of up to the base block
-- size inside one block). Leave false on topology/tree: a segment there is refused.
local BLOCK_SEGMENTS = false
local NO_VAL = 4294967294   -- unset uint32 fields read as NO_VAL (0xfffffffe)
local NO_VAL16 = 65534      -- unset uint16 fields (segment_size)

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

-- Text a user controls (their own TOPOPLACE_* values: any SPANK plugin of theirs can set
-- them for their own jobs; -w; the job name), made safe for slurmctld.log: control
-- characters (a newline would forge a log line) become '?', at most 200 bytes.
local function loggable(v)
    if v == nil then return "?" end
    local s = string.gsub(tostring(v), "%c", "?")
    if string.len(s) > 200 then s = string.sub(s, 1, 200) .. "...(" .. string.len(s) .. " bytes)" end
    return s
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
        slurm.log_info("topoplace: uid %d chose nodes (%s): plan not applied", submit_uid, loggable(job_desc.req_nodes))
        return slurm.SUCCESS
    end
    -- decided when the job starts (TopologyPlugin=topology/topoplace reads the options from
    -- the job record): nothing from submission time is applied, no constraint, no switch count
    if plan["TOPOPLACE_DECIDE"] == "start" then
        slurm.log_info("topoplace: uid %d %s: nodes chosen at start by topology/topoplace", submit_uid,
                       loggable(plan["TOPOPLACE_MODE"]))
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
    -- (a block cluster has no switches for Slurm: --switches is topology/tree's)
    if sw ~= nil and sw >= 1 and sw < 100000 and unset(job_desc.req_switch) and not BLOCK_SEGMENTS then
        job_desc.req_switch = sw
        local wait = tonumber(plan["TOPOPLACE_WAIT"])
        if wait ~= nil and wait >= 0 and wait <= 86400 then job_desc.wait4switch = wait end
        table.insert(applied, "switches=" .. sw .. "@" .. tostring(job_desc.wait4switch) .. "s")
    end

    -- NVLink racks as blocks: one segment of the job's size (--topo-nvl) or of S (--topo-segment)
    local seg = nil
    if plan["TOPOPLACE_NVL"] == "1" then seg = tonumber(job_desc.min_nodes) end
    local s = tonumber(plan["TOPOPLACE_SEGMENT"])
    if s ~= nil and s >= 1 and s <= 65533 then seg = s end
    if BLOCK_SEGMENTS and seg ~= nil and seg >= 1 and seg < NO_VAL16 then
        local cur = job_desc.segment_size     -- nil where Lua does not know the field (24.11)
        if cur ~= nil and (cur == 0 or cur == NO_VAL16) then
            job_desc.segment_size = seg
            table.insert(applied, "segment_size=" .. seg)
        elseif cur == nil then
            table.insert(applied, "segment_size not settable from Lua on this release")
        end
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

    if plan["TOPOPLACE_CONSTRAINT"] == nil and plan["TOPOPLACE_SWITCHES"] == nil then
        -- no plan (no fit at submission, or jobs queued ahead): the health store's exclusions only
        slurm.log_info("topoplace: uid %d %s: no plan, Slurm's topology chooses at start: %s", submit_uid,
                       loggable(plan["TOPOPLACE_MODE"]), table.concat(applied, " "))
        return slurm.SUCCESS
    end
    slurm.log_info("topoplace: uid %d %s plan (predicted %s): %s", submit_uid,
                   loggable(plan["TOPOPLACE_MODE"]), loggable(plan["TOPOPLACE_HOSTS"]), table.concat(applied, " "))
    return slurm.SUCCESS
end

-- Slurm up to 25.11 accepts a job unmodified when this script raises a Lua error; 26.05
-- rejects it (ESLURM_LUA_FUNC_FAILED_RUNTIME_ERROR). A bug here must never reject jobs on any
-- release: the error is logged and the job goes on as submitted, without the rest of the plan.
function slurm_job_submit(job_desc, part_list, submit_uid)
    local ok, rc = pcall(apply_plan, job_desc, part_list, submit_uid)
    if ok then return rc end
    slurm.log_error("topoplace: job_submit.lua: %s (job %s submitted without the rest of its plan)",
                    loggable(rc), loggable(job_desc.name))
    return slurm.SUCCESS
end

function slurm_job_modify(job_desc, job_rec, part_list, modify_uid)
    return slurm.SUCCESS
end

return slurm.SUCCESS
