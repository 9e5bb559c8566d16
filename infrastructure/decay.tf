# The decay job: a Lambda run on an EventBridge schedule (memory.decay_lambda.handler, the rules
# of memory.decay). It deletes expired episodes and FAILED ones older than the limit, merges
# near-duplicate episodes, flags stale or failing procedures as needs_review (it never deletes
# a procedure) and prunes old retrieval telemetry.

data "aws_iam_policy_document" "decay_assume" {
  statement {
    actions = ["sts:AssumeRole"]
    principals {
      type        = "Service"
      identifiers = ["lambda.amazonaws.com"]
    }
  }
}

resource "aws_iam_role" "decay" {
  name               = "${var.table_prefix}-decay"
  assume_role_policy = data.aws_iam_policy_document.decay_assume.json
}

data "aws_iam_policy_document" "decay" {
  statement {
    sid = "ReadAndPruneEpisodesAndProcedures"
    actions = [
      "dynamodb:DescribeTable",
      "dynamodb:Scan", # once per run, keys only: which namespaces exist
      "dynamodb:Query",
      "dynamodb:GetItem",
      "dynamodb:UpdateItem",
      "dynamodb:DeleteItem",
    ]
    resources = [
      aws_dynamodb_table.episodes.arn,
      "${aws_dynamodb_table.episodes.arn}/index/*",
      aws_dynamodb_table.procedures.arn,
      "${aws_dynamodb_table.procedures.arn}/index/*",
    ]
  }
  statement {
    sid       = "PruneRetrievalTelemetry"
    actions   = ["dynamodb:Query", "dynamodb:DeleteItem"]
    resources = [aws_dynamodb_table.telemetry.arn]
  }
  statement {
    sid       = "OpenTheOtherTables"
    actions   = ["dynamodb:DescribeTable"]
    resources = local.table_arns
  }
  statement {
    sid       = "UseTheMemoryKey"
    actions   = ["kms:Decrypt", "kms:GenerateDataKey"]
    resources = [aws_kms_key.memory.arn]
  }
  statement {
    sid       = "WriteItsLogs"
    actions   = ["logs:CreateLogStream", "logs:PutLogEvents"]
    resources = ["${aws_cloudwatch_log_group.decay.arn}:*"]
  }
  statement {
    sid       = "DeadLetters"
    actions   = ["sqs:SendMessage"]
    resources = [aws_sqs_queue.decay_dlq.arn]
  }
  statement {
    sid       = "Tracing"
    actions   = ["xray:PutTraceSegments", "xray:PutTelemetryRecords"]
    resources = ["*"] # X-Ray segment APIs take no resource ARN
  }
}

resource "aws_iam_role_policy" "decay" {
  name   = "decay-job"
  role   = aws_iam_role.decay.id
  policy = data.aws_iam_policy_document.decay.json
}

resource "aws_cloudwatch_log_group" "decay" {
  name              = "/aws/lambda/${var.table_prefix}-decay"
  retention_in_days = var.log_retention_days
  kms_key_id        = aws_kms_key.memory.arn
}

resource "aws_sqs_queue" "decay_dlq" {
  name                      = "${var.table_prefix}-decay-dlq"
  kms_master_key_id         = aws_kms_key.memory.arn
  message_retention_seconds = 1209600
}

resource "aws_lambda_function" "decay" {
  #checkov:skip=CKV_AWS_117: the job only calls DynamoDB and KMS public endpoints; a VPC would need NAT or endpoints and add nothing here
  #checkov:skip=CKV_AWS_272: the package is built from this repository by the deployer (README.md); add a signing profile where code signing is mandated
  function_name                  = "${var.table_prefix}-decay"
  role                           = aws_iam_role.decay.arn
  runtime                        = "python3.11"
  handler                        = "memory.decay_lambda.handler"
  filename                       = var.decay_package_path
  source_code_hash               = filebase64sha256(var.decay_package_path)
  timeout                        = 900
  memory_size                    = 512
  reserved_concurrent_executions = 1 # one decay at a time

  dead_letter_config {
    target_arn = aws_sqs_queue.decay_dlq.arn
  }

  tracing_config {
    mode = "Active"
  }

  depends_on = [aws_cloudwatch_log_group.decay, aws_iam_role_policy.decay]
}

resource "aws_cloudwatch_event_rule" "decay" {
  name                = "${var.table_prefix}-decay"
  description         = "Run the memory decay job"
  schedule_expression = var.decay_schedule
}

# the job's settings travel in the event, so the function reads no environment
resource "aws_cloudwatch_event_target" "decay" {
  rule = aws_cloudwatch_event_rule.decay.name
  arn  = aws_lambda_function.decay.arn
  input = jsonencode({
    memory_url                 = "aws://?region=${var.region}&table_prefix=${var.table_prefix}"
    failed_episode_days        = var.failed_episode_days
    procedure_stale_days       = var.procedure_stale_days
    procedure_min_uses         = var.procedure_min_uses
    procedure_min_success_rate = var.procedure_min_success_rate
  })
}

resource "aws_lambda_permission" "decay_schedule" {
  statement_id  = "AllowEventBridgeSchedule"
  action        = "lambda:InvokeFunction"
  function_name = aws_lambda_function.decay.function_name
  principal     = "events.amazonaws.com"
  source_arn    = aws_cloudwatch_event_rule.decay.arn
}
