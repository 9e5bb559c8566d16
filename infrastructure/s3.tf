# The fact bucket: one text document per confirmed fact plus its <key>.metadata.json sidecar,
# under <facts_prefix>/<tenant>/. Versioned, KMS-encrypted, never public, TLS only.

resource "aws_s3_bucket" "facts" {
  #checkov:skip=CKV_AWS_18: access is audited with CloudTrail data events on the account trail; a second log bucket per deployment adds cost without new information
  #checkov:skip=CKV_AWS_144: every fact is also in the facts table (point-in-time recovery) and can be rewritten from it; enable replication where policy demands a second region
  #checkov:skip=CKV2_AWS_62: nothing consumes bucket events; ingestion is started by the application in batches
  bucket = var.bucket_name
}

resource "aws_s3_bucket_versioning" "facts" {
  bucket = aws_s3_bucket.facts.id
  versioning_configuration {
    status = "Enabled"
  }
}

resource "aws_s3_bucket_server_side_encryption_configuration" "facts" {
  bucket = aws_s3_bucket.facts.id
  rule {
    apply_server_side_encryption_by_default {
      sse_algorithm     = "aws:kms"
      kms_master_key_id = aws_kms_key.memory.arn
    }
    bucket_key_enabled = true
  }
}

resource "aws_s3_bucket_public_access_block" "facts" {
  bucket                  = aws_s3_bucket.facts.id
  block_public_acls       = true
  block_public_policy     = true
  ignore_public_acls      = true
  restrict_public_buckets = true
}

resource "aws_s3_bucket_ownership_controls" "facts" {
  bucket = aws_s3_bucket.facts.id
  rule {
    object_ownership = "BucketOwnerEnforced"
  }
}

# old versions of replaced or deleted facts are kept 30 days for recovery, then removed
resource "aws_s3_bucket_lifecycle_configuration" "facts" {
  bucket = aws_s3_bucket.facts.id

  rule {
    id     = "expire-old-fact-versions"
    status = "Enabled"
    filter {}
    noncurrent_version_expiration {
      noncurrent_days = 30
    }
    abort_incomplete_multipart_upload {
      days_after_initiation = 1
    }
  }
}

data "aws_iam_policy_document" "facts_bucket" {
  statement {
    sid     = "DenyInsecureTransport"
    effect  = "Deny"
    actions = ["s3:*"]
    resources = [
      aws_s3_bucket.facts.arn,
      "${aws_s3_bucket.facts.arn}/*",
    ]
    principals {
      type        = "*"
      identifiers = ["*"]
    }
    condition {
      test     = "Bool"
      variable = "aws:SecureTransport"
      values   = ["false"]
    }
  }
}

resource "aws_s3_bucket_policy" "facts" {
  bucket = aws_s3_bucket.facts.id
  policy = data.aws_iam_policy_document.facts_bucket.json
}
